import { QUOTE_LIMITS } from '@svc/contract';
import { type PartnerConfig } from '@svc/platform';

/**
 * What a request costs from its partner's per-minute budget (docs/errors.md "Rate limits"): a quote asks every
 * allowed provider about every slice it may route, and allocation cuts its sources into at most sources + targets − 1
 * slices (QUOTE_LIMITS.maxRoutedSlices), so it costs 1 + (sources + targets − 1) × providers (security review N-L4);
 * every other request costs 1. `body` is the request's parsed JSON (undefined when there is none or it does not
 * parse); one that is no JSON object costs 1 and is refused later. Longer arrays than a quote may have count as the
 * longest allowed (they are refused later, and cost no more than that).
 */
export function requestWeight(routeName: string, body: unknown, partner: PartnerConfig): number {
  if (routeName !== 'quote' || typeof body !== 'object' || body === null) return 1;
  const { sources, targets, allowedProviders } = body as {
    sources?: unknown;
    targets?: unknown;
    allowedProviders?: unknown;
  };
  const sourceCount = Array.isArray(sources) ? Math.min(sources.length, QUOTE_LIMITS.maxSources) : 0;
  // The single-target form (`target`) is one target; so is anything that is no array (refused later).
  const targetCount = Array.isArray(targets)
    ? Math.min(Math.max(targets.length, 1), QUOTE_LIMITS.maxTargets)
    : 1;
  const slices = sourceCount === 0 ? 0 : sourceCount + targetCount - 1;
  const asked = Array.isArray(allowedProviders)
    ? partner.allowedProviders.filter((p) => allowedProviders.includes(p))
    : partner.allowedProviders;
  return 1 + slices * asked.length;
}

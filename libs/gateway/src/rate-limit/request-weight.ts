import { type PartnerConfig } from '@svc/platform';

/** Sources per quote the contract allows: a longer array is refused later, it costs no more than this. */
const MAX_WEIGHED_SOURCES = 50;

/**
 * What a request costs from its partner's per-minute budget (docs/errors.md "Rate limits"): a quote asks every
 * allowed provider about every source, so it costs 1 + sources × providers; every other request costs 1. `body` is
 * the request's parsed JSON (undefined when there is none or it does not parse); one that is no JSON object costs 1
 * and is refused later.
 */
export function requestWeight(routeName: string, body: unknown, partner: PartnerConfig): number {
  if (routeName !== 'quote' || typeof body !== 'object' || body === null) return 1;
  const { sources, allowedProviders } = body as { sources?: unknown; allowedProviders?: unknown };
  const sourceCount = Array.isArray(sources) ? Math.min(sources.length, MAX_WEIGHED_SOURCES) : 0;
  const asked = Array.isArray(allowedProviders)
    ? partner.allowedProviders.filter((p) => allowedProviders.includes(p))
    : partner.allowedProviders;
  return 1 + sourceCount * asked.length;
}

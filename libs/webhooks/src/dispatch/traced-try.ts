import { attemptStreamId, type DueWebhook } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { contextFromCarrier, inSpan, type PartnerConfig, SpanKind, tracingEnabled } from '@svc/platform';
import { tryWebhook, type TryOutcome, type TryWebhookDeps } from './try-webhook';

/**
 * tryWebhook in a CLIENT span that belongs to the lifecycle event's trace: its parent is the trace context the
 * event was appended with (its metadata), so a partner request's trace runs on to the webhooks it caused. An event
 * recorded outside any trace (or before tracing existed) starts a trace of its own. The span names the event kind,
 * the try, the partner and the callback's host; never the URL's path or query, the body or the signature.
 */
export async function tryWebhookTraced(
  deps: TryWebhookDeps,
  attemptId: string,
  due: DueWebhook,
  partner: PartnerConfig | undefined,
): Promise<TryOutcome> {
  if (!tracingEnabled()) return tryWebhook(deps, attemptId, due, partner);
  const parent = contextFromCarrier(await lifecycleMetadata(deps.store, attemptId, due.lifecycleRevision));
  const attributes = {
    'svc.webhook.event': due.event,
    'svc.webhook.try': due.attempt,
    'svc.partner_id': partner?.partnerId ?? '',
    'server.address': hostOf(partner?.callbackUrl),
  };
  return inSpan(`webhook ${due.event}`, { kind: SpanKind.CLIENT, parent, attributes }, async (span) => {
    const outcome = await tryWebhook(deps, attemptId, due, partner);
    span.setAttribute('svc.webhook.outcome', outcome.recorded);
    return outcome;
  });
}

async function lifecycleMetadata(
  store: EventStore,
  attemptId: string,
  revision: number,
): Promise<Record<string, unknown> | null> {
  const [event] = await store
    .readStream(attemptStreamId(attemptId), { fromRevision: revision, maxCount: 1 })
    .catch(() => []);
  return event?.revision === revision ? event.metadata : null;
}

function hostOf(url: string | null | undefined): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return 'invalid';
  }
}

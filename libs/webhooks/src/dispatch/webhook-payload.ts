import { API_VERSION, type WebhookEventKind, type WebhookEventPayload } from '@svc/contract';
import { attemptSnapshot, type ChainNames, attemptDecider, attemptStreamId } from '@svc/domain';
import { aggregateStream, type EventStore } from '@svc/event-store';

/**
 * The webhook body: the attempt snapshot as of the lifecycle event (the stream folded up to and including it, not a
 * later state) plus the event's metadata. Serialized once: these exact bytes are signed and sent.
 */
export async function webhookPayload(
  store: EventStore,
  entry: {
    attemptId: string;
    eventId: string;
    event: WebhookEventKind;
    lifecycleRevision: number;
    occurredAt: number;
  },
  names: ChainNames,
): Promise<string | null> {
  const { state } = await aggregateStream(store, attemptStreamId(entry.attemptId), attemptDecider, {
    maxCount: entry.lifecycleRevision + 1,
  });
  if (state.status === 'none') return null;
  const payload: WebhookEventPayload = {
    ...attemptSnapshot(state, names),
    apiVersion: API_VERSION,
    eventId: entry.eventId,
    event: entry.event,
    occurredAt: new Date(entry.occurredAt).toISOString(),
  };
  return JSON.stringify(payload);
}

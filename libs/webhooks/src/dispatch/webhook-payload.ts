import { API_VERSION, type WebhookEventKind, type WebhookEventPayload } from '@svc/contract';
import {
  type AttemptEvent,
  attemptSnapshot,
  type ChainNames,
  evolveAttempt,
  initialAttemptState,
  attemptStreamId,
} from '@svc/domain';
import { type EventStore } from '@svc/event-store';

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
  const events = await store.readStream(attemptStreamId(entry.attemptId), {
    maxCount: entry.lifecycleRevision + 1,
  });
  const state = events.reduce((s, e) => evolveAttempt(s, e as unknown as AttemptEvent), initialAttemptState);
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

import {
  decideWebhookDelivery,
  evolveWebhookDelivery,
  initialWebhookDeliveryState,
  type WebhookDeliveryCommand,
  type WebhookDeliveryEvent,
  type WebhookDeliveryState,
} from '@svc/domain';
import { eventIdFrom, type EventStore, WrongExpectedVersionError } from '@svc/event-store';

export const webhookStreamId = (attemptId: string) => `webhook-${attemptId}`;

export async function loadWebhooks(
  store: EventStore,
  attemptId: string,
): Promise<{ state: WebhookDeliveryState; revision: number | 'no_stream' }> {
  const events = await store.readStream(webhookStreamId(attemptId));
  const state = events.reduce(
    (s, e) => evolveWebhookDelivery(s, e as unknown as WebhookDeliveryEvent),
    initialWebhookDeliveryState,
  );
  return { state, revision: events.at(-1)?.revision ?? 'no_stream' };
}

/** Decide against the stream and append at the revision read; re-read and re-decide on a concurrent append. */
export async function decideWebhooks(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: WebhookDeliveryCommand,
): Promise<WebhookDeliveryEvent[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { state, revision } = await loadWebhooks(store, attemptId);
    const events = decideWebhookDelivery(command, state);
    if (events.length === 0) return [];
    try {
      await store.append(
        webhookStreamId(attemptId),
        events.map((e, i) => ({
          id: eventIdFrom(webhookStreamId(attemptId), stepId, String(i)),
          type: e.type,
          data: { ...e.data },
        })),
        { expectedRevision: revision },
      );
      return events;
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
    }
  }
  throw new Error(`webhooks of attempt ${attemptId}: too many concurrent appends`);
}

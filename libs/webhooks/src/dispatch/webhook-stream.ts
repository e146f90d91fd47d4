import {
  type WebhookDeliveryCommand,
  webhookDeliveryDecider,
  type WebhookDeliveryEvent,
  type WebhookDeliveryState,
  webhookStreamId,
} from '@svc/domain';
import { aggregateStream, type EventStore, handleCommand } from '@svc/event-store';

/** The attempt's webhook delivery stream, folded (and the revision read). */
export function loadWebhooks(
  store: EventStore,
  attemptId: string,
): Promise<{ state: WebhookDeliveryState; revision: number | 'no_stream' }> {
  return aggregateStream(store, webhookStreamId(attemptId), webhookDeliveryDecider);
}

/**
 * One webhook delivery command through the command seam; the events it appended. Each step (a queued event, one
 * try) is recorded at most once: a dispatcher that stalled past its lease and records the same try after the new
 * holder did appends nothing.
 */
export async function decideWebhooks(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: WebhookDeliveryCommand,
): Promise<WebhookDeliveryEvent[]> {
  const { events } = await handleCommand(store, webhookStreamId(attemptId), webhookDeliveryDecider, command, {
    stepId,
    once: true,
  });
  return events;
}

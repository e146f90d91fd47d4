import {
  type WebhookDeliveryCommand,
  webhookDeliveryDecider,
  type WebhookStreamEvent,
  type WebhookDeliveryState,
  webhookStreamId,
} from '@svc/domain';
import { aggregateStream, type CommandResult, type EventStore, handleCommand } from '@svc/event-store';
import { type KnownQueues } from './known-queues';

/** The attempt's webhook delivery stream, folded (and the revision read). */
export function loadWebhooks(
  store: EventStore,
  attemptId: string,
): Promise<{ state: WebhookDeliveryState; revision: number | 'no_stream' }> {
  return aggregateStream(store, webhookStreamId(attemptId), webhookDeliveryDecider);
}

/**
 * One webhook delivery command through the command seam: the events it appended and the queue after them. Each step
 * (a queued event, one try) is recorded at most once: a dispatcher that stalled past its lease and records the same
 * try after the new holder did appends nothing. With `known`, the command decides on the queue held there (no read
 * unless that copy is stale) and leaves the queue after it there.
 */
export async function commandWebhooks(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: WebhookDeliveryCommand,
  known?: KnownQueues,
): Promise<CommandResult<WebhookDeliveryState, WebhookStreamEvent>> {
  const result = await handleCommand(
    store,
    webhookStreamId(attemptId),
    webhookDeliveryDecider,
    command,
    { stepId, once: true },
    known?.of(attemptId),
  );
  known?.remember(attemptId, result);
  return result;
}

/** commandWebhooks, for callers that need only the events it appended. */
export async function decideWebhooks(
  store: EventStore,
  attemptId: string,
  stepId: string,
  command: WebhookDeliveryCommand,
): Promise<WebhookStreamEvent[]> {
  return (await commandWebhooks(store, attemptId, stepId, command)).events;
}

import { type WebhookEventKind } from '@svc/contract';
import { queueHead, type WebhookDeliveryState } from './webhook-delivery.state';

export interface DueWebhook {
  eventId: string;
  event: WebhookEventKind;
  lifecycleRevision: number;
  occurredAt: number;
  /** The try about to happen, 1-based. */
  attempt: number;
}

/**
 * The head event if it is due at `now`, else null. Never an event behind the head: an attempt's next event is not
 * sent before the previous one was delivered or abandoned.
 */
export function nextDue(state: WebhookDeliveryState, now: number): DueWebhook | null {
  const head = queueHead(state);
  if (!head) return null;
  if (head.nextAttemptAt !== null && now < head.nextAttemptAt) return null;
  const { eventId, event, lifecycleRevision, occurredAt, attempts } = head;
  return { eventId, event, lifecycleRevision, occurredAt, attempt: attempts + 1 };
}

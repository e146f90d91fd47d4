import { type WebhookEventKind } from '@svc/contract';
import { queueEntries, type WebhookDeliveryState, type WebhookEntryStatus } from './webhook-delivery.state';

/** An event whose last try failed: retrying, or given up. */
export interface FailingWebhook {
  eventId: string;
  event: WebhookEventKind;
  status: Extract<WebhookEntryStatus, 'retrying' | 'abandoned'>;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
  lastStatus: number | null;
}

export interface WebhookDeliveryStats {
  total: number;
  counts: Record<WebhookEntryStatus, number>;
  /** In queue order. */
  failing: FailingWebhook[];
}

/** For the operator CLI and metrics. */
export function deliveryStats(state: WebhookDeliveryState): WebhookDeliveryStats {
  const entries = queueEntries(state);
  const counts: Record<WebhookEntryStatus, number> = { queued: 0, retrying: 0, delivered: 0, abandoned: 0 };
  const failing: FailingWebhook[] = [];
  for (const entry of entries) {
    counts[entry.status] += 1;
    if (entry.status === 'retrying' || entry.status === 'abandoned') {
      const { eventId, event, status, attempts, nextAttemptAt, lastError, lastStatus } = entry;
      failing.push({ eventId, event, status, attempts, nextAttemptAt, lastError, lastStatus });
    }
  }
  return { total: entries.length, counts, failing };
}

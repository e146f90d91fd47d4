import { type WebhookEventKind } from '@svc/contract';

export type WebhookEntryStatus = 'queued' | 'retrying' | 'delivered' | 'abandoned';

/** One lifecycle event in the attempt's queue. */
export interface WebhookQueueEntry {
  eventId: string;
  event: WebhookEventKind;
  lifecycleRevision: number;
  occurredAt: number;
  status: WebhookEntryStatus;
  /** Tries of the current pass; a redelivery starts a new pass at 0. */
  attempts: number;
  /** When the next try is due (retrying only). */
  nextAttemptAt: number | null;
  /** The error of the last try (for an abandoned event: why it was abandoned); null after a success. */
  lastError: string | null;
  lastStatus: number | null;
  /** Tries of every pass (a redelivery starts a pass, the count goes on). */
  deliveries: number;
  /** When the first and the last try ended; null before the first. */
  firstTryAt: number | null;
  lastTryAt: number | null;
  /**
   * When the latest redeliveries and retries brought forward were asked for, oldest first: at most
   * REDELIVERY_WINDOW.requests of them, what the redelivery cap is decided on.
   */
  requestedAt: number[];
  /** Its earlier tries were compacted (WebhookHistoryCompacted): counted in `deliveries`, no longer in the stream. */
  compacted: boolean;
}

/**
 * The webhook queue of one attempt, in queued order. The head is the first entry not delivered or abandoned;
 * nothing behind it is sent before it ends, which is what "ordered per attempt" means.
 */
export type WebhookDeliveryState =
  | { status: 'empty' }
  | {
      status: 'active';
      attemptId: string;
      partnerId: string;
      entries: WebhookQueueEntry[];
      /** The newest time an event of the stream carries (queued, a try, a request); what retention counts from. */
      lastActivityAt: number;
      /** Something happened since the last compaction (or there was none): there is history to compact. */
      changedSinceCompaction: boolean;
    };

export const initialWebhookDeliveryState: WebhookDeliveryState = { status: 'empty' };

export const isPending = (entry: WebhookQueueEntry): boolean =>
  entry.status === 'queued' || entry.status === 'retrying';

export function queueEntries(state: WebhookDeliveryState): WebhookQueueEntry[] {
  return state.status === 'active' ? state.entries : [];
}

export function findEntry(state: WebhookDeliveryState, eventId: string): WebhookQueueEntry | undefined {
  return queueEntries(state).find((entry) => entry.eventId === eventId);
}

/** The first entry not delivered or abandoned: the only one that may be sent. */
export function queueHead(state: WebhookDeliveryState): WebhookQueueEntry | undefined {
  return queueEntries(state).find(isPending);
}

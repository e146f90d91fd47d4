import { deliveryStats, type FailingWebhook, type WebhookEntryStatus } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { loadWebhooks } from '@svc/webhooks';
import { type ListFilter } from './parse-args';

const STREAM_PREFIX = 'webhook-';
const WEBHOOK_EVENT_TYPES = new Set([
  'WebhookQueued',
  'WebhookAttempted',
  'WebhookDelivered',
  'WebhookAbandoned',
  'WebhookRedeliveryRequested',
  'WebhookRetryRequested',
]);

export interface ListedWebhook extends FailingWebhook {
  attemptId: string;
}

export interface WebhookListing {
  /** Attempts with a webhook stream that were looked at. */
  attempts: number;
  /** Entries of those attempts by status, whether they matched the filter or not. */
  counts: Record<WebhookEntryStatus, number>;
  /** Entries matching the filter, by attempt (first seen first), then in queue order. */
  entries: ListedWebhook[];
}

/** The attempts with a webhook stream, in the order their first event was written. */
export async function webhookAttemptIds(store: EventStore): Promise<string[]> {
  const ids = new Set<string>();
  for (const event of await store.readAll({ streamPrefixes: [STREAM_PREFIX] })) {
    if (WEBHOOK_EVENT_TYPES.has(event.type)) ids.add(event.streamId.slice(STREAM_PREFIX.length));
  }
  return [...ids];
}

/** Folds each attempt's stream; `undefined` when `attemptId` was given and has no webhook stream. */
export async function listWebhooks(
  store: EventStore,
  filter: ListFilter,
  attemptId?: string,
): Promise<WebhookListing | undefined> {
  const attemptIds = attemptId === undefined ? await webhookAttemptIds(store) : [attemptId];
  const counts: Record<WebhookEntryStatus, number> = { queued: 0, retrying: 0, delivered: 0, abandoned: 0 };
  const entries: ListedWebhook[] = [];
  let attempts = 0;
  for (const id of attemptIds) {
    const { state } = await loadWebhooks(store, id);
    if (state.status === 'empty') continue;
    attempts += 1;
    const stats = deliveryStats(state);
    for (const status of Object.keys(counts) as WebhookEntryStatus[]) counts[status] += stats.counts[status];
    for (const entry of stats.failing) {
      if (filter === 'failing' || entry.status === filter) entries.push({ attemptId: id, ...entry });
    }
  }
  if (attemptId !== undefined && attempts === 0) return undefined;
  return { attempts, counts, entries };
}

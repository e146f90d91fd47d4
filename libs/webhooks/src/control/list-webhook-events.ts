import {
  decodeWebhookCursor,
  encodeWebhookCursor,
  WEBHOOK_CONTROL_LIMITS,
  type WebhookEventsResponse,
} from '@svc/contract';
import { webhookEventHistories } from '@svc/domain';
import { type EventStore, InvalidPositionError, type Position } from '@svc/event-store';
import { readWebhookStream, record } from './webhook-records';
import { type WebhookEventsReadModel } from './webhook-events.read-model';

/**
 * One page of a partner's webhook events, oldest first (the order they were queued, which is the global log's), each
 * folded from its attempt's webhook stream with every try. The page comes from the read model's per-partner index
 * (caught up with the log first), so its cost grows with the page, not with the events other partners stored. The
 * cursor is a log position (the last `webhook-` event a scan of the log would have read): the next page, or a later
 * poll, reads on from there. null: the cursor is not one this service issued.
 */
export async function listWebhookEvents(
  store: EventStore,
  readModel: Pick<WebhookEventsReadModel, 'fresh' | 'index'>,
  partnerId: string,
  cursor: string | null,
  pageSize: number = WEBHOOK_CONTROL_LIMITS.pageSize,
): Promise<Omit<WebhookEventsResponse, 'apiVersion'> | null> {
  let after: Position | undefined;
  if (cursor !== null) {
    const decoded = decodeWebhookCursor(cursor);
    if (decoded === null || !(await isPositionOf(store, decoded))) return null;
    after = decoded;
  }
  await readModel.fresh();
  const { found, hasMore, position } = readModel.index.page(partnerId, after, pageSize);
  const histories = new Map(
    await Promise.all(
      [...new Set(found.map((f) => f.attemptId))].map(async (attemptId) => {
        const stream = await readWebhookStream(store, attemptId);
        return [attemptId, webhookEventHistories(stream)] as const;
      }),
    ),
  );
  const events = found.flatMap(({ attemptId, eventId }) => {
    const history = histories.get(attemptId)?.find((h) => h.eventId === eventId);
    return history ? [record(history)] : [];
  });
  return { events, nextCursor: encodeWebhookCursor(position ?? '0'), hasMore };
}

/** Whether the store can read after this position (its own rule: one read of at most one event). */
async function isPositionOf(store: EventStore, position: Position): Promise<boolean> {
  try {
    await store.readAll({ after: position, maxCount: 1 });
    return true;
  } catch (error) {
    if (error instanceof InvalidPositionError) return false;
    throw error;
  }
}

import {
  decodeWebhookCursor,
  encodeWebhookCursor,
  WEBHOOK_CONTROL_LIMITS,
  type WebhookEventsResponse,
} from '@svc/contract';
import { webhookEventHistories } from '@svc/domain';
import { type EventStore, type Position } from '@svc/event-store';
import { readWebhookStream, record } from './webhook-records';
import { type WebhookEventsReadModel } from './webhook-events.read-model';

/**
 * One page of a partner's webhook events, oldest first (the order they were queued, which is the global log's), each
 * folded from its attempt's webhook stream with every try. The page comes from the read model's per-partner index
 * (caught up with the log first), so its cost grows with the page, not with the events other partners stored.
 *
 * The cursor names the partner's own last listed event, bound to the partner (security review N-L2): it holds no log
 * position, so polling it tells nothing of other partners' activity, and it is resolved in the partner's own index
 * only (nothing of it reaches the event store). A cursor of the form issued before (a log position) still reads on,
 * within the partner's own list. null: the cursor is not one this service issued to this partner.
 */
export async function listWebhookEvents(
  store: EventStore,
  readModel: Pick<WebhookEventsReadModel, 'fresh' | 'index'>,
  partnerId: string,
  cursor: string | null,
  pageSize: number = WEBHOOK_CONTROL_LIMITS.pageSize,
): Promise<Omit<WebhookEventsResponse, 'apiVersion'> | null> {
  const decoded = cursor === null ? ({ kind: 'start' } as const) : decodeWebhookCursor(partnerId, cursor);
  if (decoded === null) return null;
  await readModel.fresh();
  let after: Position | undefined;
  if (decoded.kind === 'after-event') {
    const position = readModel.index.positionOf(partnerId, decoded.eventId);
    if (position === null) return null;
    after = position;
  } else if (decoded.kind === 'position') after = decoded.position;
  const { found, hasMore, lastEventId } = readModel.index.page(partnerId, after, pageSize);
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
  return { events, nextCursor: encodeWebhookCursor(partnerId, lastEventId), hasMore };
}

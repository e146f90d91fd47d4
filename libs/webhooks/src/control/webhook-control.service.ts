import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  encodeRecoverContinuation,
  type ErrorCode,
  type RateLimitedWebhookEvent,
  type RecoverContinuation,
  type RecoveredWebhookEvent,
  WEBHOOK_CONTROL_LIMITS,
  type WebhookRecoverRange,
} from '@svc/contract';
import {
  redeliveryAllowedAt,
  type WebhookStreamEvent,
  WebhookDeliveryRefusedError,
  type WebhookDeliveryState,
  webhookEventHistories,
  webhookStreamId,
} from '@svc/domain';
import { comparePositions, EVENT_STORE, type EventStore, type Position } from '@svc/event-store';
import { type BusReply, type FeatureRefusal, type FeatureRequest, type MessagePattern } from '@svc/messaging';
import { WebhookDispatcher } from '../dispatch/webhook-dispatcher';
import { listWebhookEvents } from './list-webhook-events';
import { queuedWebhooksOf } from './webhook-queued';
import { WebhookEventsReadModel } from './webhook-events.read-model';
import { readWebhookStream } from './webhook-records';
import { commandWebhooks } from '../dispatch/webhook-stream';

type Events = typeof MessagePattern.webhookEvents;
type Redeliver = typeof MessagePattern.webhookRedeliver;
type Recover = typeof MessagePattern.webhookRecover;

/**
 * The partner's webhook control plane (docs/webhooks.md): its webhook events with every try, a redelivery of one
 * (or a retry brought forward), a recovery of a time range. Everything is read from and written to the
 * `webhook-<attemptId>` streams through the webhook delivery decider, the same commands the operator CLI runs, and
 * the dispatcher sends what they queue: signed afresh, same event ids and bodies, in order per attempt. Which events
 * and attempts a request concerns comes from the read model's per-partner index (caught up with the log first), so no
 * request reads other partners' events.
 */
@Injectable()
export class WebhookControlService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly readModel: WebhookEventsReadModel,
  ) {}

  /** A page of the partner's events, oldest first, after the cursor (from the start without one). */
  async list(request: FeatureRequest<null>): Promise<BusReply<Events>> {
    const page = await listWebhookEvents(this.store, this.readModel, request.partnerId, request.resourceId);
    if (page === null) return invalidCursor();
    return { ok: true, resource: null, body: page };
  }

  /**
   * Sends an ended event again (a new pass) or tries one waiting for its retry now. A replay of the same
   * Idempotency-Key appends nothing and answers what the first request did.
   */
  async redeliver(request: FeatureRequest<null>): Promise<BusReply<Redeliver>> {
    const eventId = request.resourceId ?? '';
    const attemptId = eventId === '' ? null : await this.attemptOf(request.partnerId, eventId);
    if (attemptId === null) return eventNotFound(eventId);
    const tag = requestTag(request, 'redeliver');
    if (request.replayOf === null) {
      try {
        // One step per Idempotency-Key: a concurrent duplicate of this request appends nothing.
        await commandWebhooks(this.store, attemptId, `redeliver:${eventId}:${tag}`, {
          type: 'RequestRedelivery',
          data: { eventId, now: request.receivedAt, requestedBy: tag, capped: true },
        });
      } catch (error) {
        if (error instanceof WebhookDeliveryRefusedError && error.code === 'webhook_delivery_pending')
          return refusal('webhook_delivery_pending', `webhook event ${eventId} is queued and not tried yet`);
        if (error instanceof WebhookDeliveryRefusedError && error.code === 'webhook_redelivery_rate_limited')
          return rateLimited(eventId, request.receivedAt, error.retryAt);
        if (error instanceof WebhookDeliveryRefusedError && error.code === 'webhook_event_unknown')
          return eventNotFound(eventId);
        throw error;
      }
      this.dispatcher.nudge(attemptId);
    }
    const stream = await this.stream(attemptId);
    const mine = stream.filter((e) => 'requestedBy' in e.data && e.data.requestedBy === tag);
    const history = webhookEventHistories(stream).find((h) => h.eventId === eventId);
    const action = mine.some((e) => e.type === 'WebhookRedeliveryRequested')
      ? 'redelivery_queued'
      : mine.some((e) => e.type === 'WebhookRetryRequested')
        ? 'retry_now'
        : 'none';
    return {
      ok: true,
      resource: { kind: 'attempt', id: attemptId },
      body: { eventId, attemptId, action, status: history?.status ?? 'queued' },
    };
  }

  /**
   * One page of a recovery of [from, to): sends again every ended event of at most maxRecoverAttemptsPerCall of the
   * partner's attempts that have events in the range, one RequestRecovery per attempt (its events in lifecycle order,
   * behind its pending ones), and answers the continuation to the next page when there is one.
   *
   * The pages take the range's events in time order (occurredAt, then log position) among those queued when the
   * first page ran (`asOf`, carried on by the continuation): each attempt is recovered once, on the page of its first
   * event in that order, however many events are queued meanwhile. A later page skips an attempt it meets again
   * (its stream shows an event of the range before the page, queued by `asOf`). A replay appends nothing and
   * answers the same page, read back from the redeliveries the first request tagged.
   */
  async recover(request: FeatureRequest<WebhookRecoverRange>): Promise<BusReply<Recover>> {
    const { from, to, continuation } = request.body;
    const tag = requestTag(request, 'recover');
    await this.readModel.fresh();
    // The events a recovery covers: those queued by the first page's run. A replay of a first page finds it in the
    // resource the first run answered; null: nothing was queued then.
    const asOf =
      continuation?.asOf ??
      (request.replayOf === null
        ? (this.readModel.index.lastPosition ?? null)
        : snapshotOf(request.replayOf.id, this.readModel.index.lastPosition));
    const page =
      asOf === null
        ? { attempts: [], next: undefined }
        : this.readModel.index.attemptsQueuedBetween(request.partnerId, from, to, {
            limit: WEBHOOK_CONTROL_LIMITS.maxRecoverAttemptsPerCall,
            after: continuation?.after,
            asOf,
          });
    const recovered: RecoveredWebhookEvent[] = [];
    const limited: RateLimitedWebhookEvent[] = [];
    // One attempt per turn: the page's store work takes turns with every partner's webhooks (PartnerTurns).
    const recoverOne = async (attemptId: string): Promise<void> => {
      if (request.replayOf === null) {
        if (continuation && (await this.recoveredBefore(attemptId, from, to, continuation))) return;
        const { state } = await commandWebhooks(this.store, attemptId, `recover:${tag}`, {
          type: 'RequestRecovery',
          data: { from, to, now: request.receivedAt, requestedBy: tag, capped: true },
        });
        limited.push(...leftOutAtCap(state, from, to, request.receivedAt));
        this.dispatcher.nudge(attemptId, true);
      }
      const stream = await this.stream(attemptId);
      const histories = webhookEventHistories(stream);
      for (const event of stream) {
        if (event.type !== 'WebhookRedeliveryRequested' || event.data.requestedBy !== tag) continue;
        const history = histories.find((h) => h.eventId === event.data.eventId);
        if (history)
          recovered.push({
            eventId: history.eventId,
            event: history.event,
            attemptId,
            occurredAt: new Date(history.occurredAt).toISOString(),
          });
      }
    };
    for (const attemptId of page.attempts)
      await this.dispatcher.takeTurn(request.partnerId, () => recoverOne(attemptId));
    const next =
      page.next === undefined || asOf === null
        ? {}
        : { continuation: encodeRecoverContinuation(from, to, { after: page.next, asOf }) };
    return {
      ok: true,
      resource: { kind: 'webhook_recovery', id: `${tag}@${asOf ?? ''}` },
      body: {
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        recovered,
        ...(limited.length > 0 ? { rateLimited: limited } : {}),
        ...next,
      },
    };
  }

  /**
   * Whether an earlier page of this recovery took the attempt: it has an event of the range queued by the
   * recovery's `asOf` that comes before this page in time order (the index's: occurredAt, then log position).
   */
  private async recoveredBefore(
    attemptId: string,
    from: number,
    to: number,
    { after, asOf }: RecoverContinuation,
  ): Promise<boolean> {
    // Its WebhookQueued events, or (once compacted) those its history summary kept, with their positions.
    for (const queued of (await this.store.readStream(webhookStreamId(attemptId))).flatMap(
      queuedWebhooksOf,
    )) {
      if (queued.occurredAt === null) continue;
      const at = queued.occurredAt;
      if (at < from || at >= to || comparePositions(queued.position, asOf) > 0) continue;
      if (
        at < after.occurredAt ||
        (at === after.occurredAt && comparePositions(queued.position, after.position) <= 0)
      )
        return true;
    }
    return false;
  }

  /** The attempt whose webhook stream queued `eventId` for this partner, or null. */
  private async attemptOf(partnerId: string, eventId: string): Promise<string | null> {
    await this.readModel.fresh();
    return this.readModel.index.attemptOf(partnerId, eventId);
  }

  private stream(attemptId: string): Promise<WebhookStreamEvent[]> {
    return readWebhookStream(this.store, attemptId);
  }
}

/**
 * The `asOf` of the recovery a replayed page belongs to, from the resource its first run answered (`<tag>@<asOf>`,
 * empty: nothing was queued). A resource of a recovery made before recoveries had pages names only the tag: the
 * replay then reads back as of now.
 */
function snapshotOf(resourceId: string, now: Position | undefined): Position | null {
  const asOf = /@(\d+(?::\d+)*)?$/.exec(resourceId);
  if (asOf === null) return now ?? null;
  return asOf[1] ?? null;
}

/**
 * Who asked, as the stream records it (`requestedBy`): the partner and a digest of the request's Idempotency-Key,
 * so a replay finds what the first request appended. Never the key itself.
 */
function requestTag(request: FeatureRequest<unknown>, operation: string): string {
  const key = createHash('sha256')
    .update(request.idempotencyKey ?? request.requestId)
    .digest('hex')
    .slice(0, 24);
  return `partner:${request.partnerId}:${operation}:${key}`;
}

function refusal(code: ErrorCode, message: string): FeatureRefusal {
  return { ok: false, code, message };
}

/**
 * The ended events of the range a capped recovery left out, from the queue right after it (those it sent again are
 * queued there): each already sent again as often as an hour allows.
 */
function leftOutAtCap(
  state: WebhookDeliveryState,
  from: number,
  to: number,
  now: number,
): RateLimitedWebhookEvent[] {
  if (state.status !== 'active') return [];
  return state.entries
    .filter((e) => e.occurredAt >= from && e.occurredAt < to)
    .filter((e) => e.status === 'delivered' || e.status === 'abandoned')
    .sort((a, b) => a.lifecycleRevision - b.lifecycleRevision)
    .flatMap((e) => {
      const allowedAt = redeliveryAllowedAt(e, now);
      if (allowedAt === null) return [];
      return [
        {
          eventId: e.eventId,
          event: e.event,
          attemptId: state.attemptId,
          occurredAt: new Date(e.occurredAt).toISOString(),
          retryAt: new Date(allowedAt).toISOString(),
        },
      ];
    });
}

function rateLimited(eventId: string, now: number, retryAt: number | undefined): FeatureRefusal {
  const at = retryAt ?? now + 1000;
  return {
    ok: false,
    code: 'webhook_redelivery_rate_limited',
    message: `webhook event ${eventId} was already sent again ${WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour} times in the last hour; again from ${new Date(at).toISOString()}`,
    retryAfterSeconds: Math.max(1, Math.ceil((at - now) / 1000)),
  };
}

function invalidCursor(): FeatureRefusal {
  return refusal('invalid_webhook_cursor', 'the cursor is not one this service returned for the event list');
}

function eventNotFound(eventId: string): FeatureRefusal {
  return refusal('webhook_event_not_found', `none of your attempts has a webhook event ${eventId}`);
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import {
  attemptDecider,
  attemptIdOfWebhookStream,
  attemptStreamId,
  deliveryStats,
  nextDue,
  WEBHOOK_STREAM_PREFIX,
} from '@svc/domain';
import { aggregateStream, EVENT_STORE, type EventStore, type RecordedEvent } from '@svc/event-store';
import { CatchUpWorker, errorMessage, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { type LifecycleMessage } from '@svc/messaging';
import { CLOCK, type Clock, PARTNER_DIRECTORY, type PartnerDirectory } from '@svc/platform';
import { deliverWebhook } from '../delivery/deliver-webhook';
import { WEBHOOKS_OPTIONS, type WebhooksOptions } from '../webhooks.options';
import { webhookMetrics } from './webhook-metrics';
import { webhookPayload } from './webhook-payload';
import { decideWebhooks, loadWebhooks } from './webhook-stream';

/** The lease group of the dispatcher instances: `lease-webhook-dispatcher-<shard>` streams. */
export const DISPATCHER_LEASE_GROUP = 'webhook-dispatcher';
/** How often the dispatcher saves its log position and its list of attempts with webhooks (and at shutdown). */
export const DISPATCHER_CHECKPOINT_EVERY_MS = 5_000;

/**
 * Delivers each attempt's lifecycle webhooks to its partner's callback URL, in order per attempt (the next event
 * waits until the previous one was delivered or abandoned; different attempts do not wait for each other), with
 * the retry schedule of the webhook-delivery decider. Every try is recorded on `webhook-<attemptId>`, so pending
 * retries survive a restart: the work list is rebuilt from those streams.
 *
 * Several instances share the attempts by shard (`shardOf(attemptId)`, leased like the tracker's): any instance may
 * queue a webhook (whichever consumed the lifecycle message), but only the holder of the attempt's shard delivers,
 * so per-attempt order holds across instances, and a dead instance's attempts move on once its leases expire.
 */
@Injectable()
export class WebhookDispatcher extends CatchUpWorker {
  private readonly open = new Set<string>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PARTNER_DIRECTORY) private readonly partners: PartnerDirectory,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOKS_OPTIONS) private readonly options: WebhooksOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    super({
      store,
      clock,
      sharing,
      group: DISPATCHER_LEASE_GROUP,
      logger: new Logger('WebhookDispatcher'),
      ownershipMessage: 'delivering for shards',
      streamPrefixes: [WEBHOOK_STREAM_PREFIX],
      tickMs: options.tickMs,
      checkpointEveryMs: DISPATCHER_CHECKPOINT_EVERY_MS,
    });
  }

  /** A lifecycle message from the bus: queue its webhook (a duplicate delivery of the message is a no-op). */
  async queue(message: LifecycleMessage): Promise<void> {
    const partnerId = await this.partnerOf(message.attemptId);
    if (partnerId === null || !this.partners.get(partnerId)?.callbackUrl) return; // nobody to call
    await decideWebhooks(this.store, message.attemptId, `queue:${message.eventId}`, {
      type: 'QueueWebhook',
      data: {
        eventId: message.eventId,
        event: message.event,
        attemptId: message.attemptId,
        partnerId,
        lifecycleRevision: message.revision,
        occurredAt: message.occurredAt,
        now: this.clock.now(),
      },
    });
    this.open.add(message.attemptId);
    void this.tick();
  }

  /** The partner of the attempt, from its first event (AttemptPrepared); null for an attempt never prepared. */
  private async partnerOf(attemptId: string): Promise<string | null> {
    const { state } = await aggregateStream(this.store, attemptStreamId(attemptId), attemptDecider, {
      maxCount: 1,
    });
    return state.status === 'none' ? null : state.prepared.partnerId;
  }

  /** Attempts with webhook streams written since the last pass (by queue(), the CLI or another process). */
  protected override observe(event: RecordedEvent): void {
    this.open.add(attemptIdOfWebhookStream(event.streamId));
  }

  /** Every attempt of this instance's shards with due webhooks, `concurrency` at a time. */
  protected override async work(): Promise<void> {
    let depth = 0;
    const ids = [...this.open].filter((id) => this.leases.ownsKey(id)); // the other instances deliver the rest
    for (let i = 0; i < ids.length; i += this.options.concurrency) {
      const results = await Promise.all(
        ids
          .slice(i, i + this.options.concurrency)
          .map((id) => this.deliverNext(id).catch((err: unknown) => this.failed(id, err))),
      );
      depth += results.reduce((n, r) => n + r, 0);
    }
    webhookMetrics.queueDepth.set(depth);
  }

  protected override snapshot(): { open: string[] } {
    return { open: [...this.open] };
  }

  protected override restore(state: unknown): boolean {
    const open = (state as { open?: unknown } | null)?.open;
    if (!Array.isArray(open) || !open.every((id) => typeof id === 'string')) return false;
    for (const id of open) this.open.add(id);
    return true;
  }

  /** Tries an attempt's webhooks in order while they are due and succeed; returns how many are still pending. */
  private async deliverNext(attemptId: string): Promise<number> {
    for (;;) {
      const result = await this.tryHead(attemptId);
      if (result.pending === 0 || !result.progressed) return result.pending;
    }
  }

  /** Tries the head webhook of one attempt if it is due. */
  private async tryHead(attemptId: string): Promise<{ pending: number; progressed: boolean }> {
    const { state } = await loadWebhooks(this.store, attemptId);
    const { counts } = deliveryStats(state);
    const pending = counts.queued + counts.retrying;
    if (pending === 0) {
      this.open.delete(attemptId);
      return { pending: 0, progressed: false };
    }
    const now = this.clock.now();
    const due = nextDue(state, now);
    if (!due) return { pending, progressed: false };
    const partner = state.status === 'active' ? this.partners.get(state.partnerId) : undefined;
    const body = await webhookPayload(
      this.store,
      { attemptId, ...due },
      { chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`) },
    );
    const result =
      !partner?.callbackUrl || body === null
        ? {
            kind: 'failure' as const,
            status: null,
            error: 'no callback URL configured for the partner',
            retryAfterMs: null,
            durationMs: 0,
          }
        : await deliverWebhook({
            url: partner.callbackUrl,
            partnerId: partner.partnerId,
            secret: partner.secret,
            eventId: due.eventId,
            body,
            now: () => this.clock.now(),
            timeoutMs: this.options.timeoutMs,
          });
    const after = this.clock.now();
    const events = await decideWebhooks(this.store, attemptId, `try:${due.eventId}:${due.attempt}`, {
      type: 'RecordDeliveryResult',
      data: {
        eventId: due.eventId,
        now: after,
        random: Math.random(),
        result:
          result.kind === 'failure'
            ? {
                kind: 'failure',
                status: result.status,
                error: result.error,
                retryAfterMs: result.retryAfterMs,
              }
            : result.kind === 'gone'
              ? { kind: 'gone', status: 410 }
              : { kind: 'success', status: result.status },
      },
    });
    const outcome =
      events[0]?.type === 'WebhookDelivered'
        ? 'delivered'
        : events[0]?.type === 'WebhookAbandoned'
          ? 'abandoned'
          : 'failed';
    webhookMetrics.deliveries.inc({ outcome });
    if (outcome === 'delivered') webhookMetrics.lag.observe(Math.max(0, after - due.occurredAt) / 1000);
    if (outcome !== 'failed')
      this.worker.logger.log({
        msg: `webhook ${outcome}`,
        attemptId,
        eventId: due.eventId,
        event: due.event,
      });
    return outcome === 'failed' ? { pending, progressed: false } : { pending: pending - 1, progressed: true };
  }

  private failed(attemptId: string, err: unknown): number {
    this.worker.logger.warn({ msg: 'webhook delivery pass failed', attemptId, error: errorMessage(err) });
    return 1;
  }
}

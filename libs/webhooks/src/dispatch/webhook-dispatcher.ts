import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { nextDue, deliveryStats, attemptStreamId } from '@svc/domain';
import { EVENT_STORE, type EventStore, type Position, readAllPaged } from '@svc/event-store';
import { leasesFor, type ShardLeases, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { type LifecycleMessage } from '@svc/messaging';
import { CLOCK, type Clock, PARTNER_DIRECTORY, type PartnerDirectory, PassScheduler } from '@svc/platform';
import { deliverWebhook } from '../delivery/deliver-webhook';
import { WEBHOOKS_OPTIONS, type WebhooksOptions } from '../webhooks.options';
import { webhookMetrics } from './webhook-metrics';
import { webhookPayload } from './webhook-payload';
import { decideWebhooks, loadWebhooks } from './webhook-stream';

/** The lease group of the dispatcher instances: `lease-webhook-dispatcher-<shard>` streams. */
export const DISPATCHER_LEASE_GROUP = 'webhook-dispatcher';

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
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly open = new Set<string>();
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());
  private readonly leases: ShardLeases;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PARTNER_DIRECTORY) private readonly partners: PartnerDirectory,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOKS_OPTIONS) private readonly options: WebhooksOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    this.leases = leasesFor(sharing, {
      store,
      clock,
      group: DISPATCHER_LEASE_GROUP,
      onChange: (owned) => this.logger.log({ msg: 'delivering for shards', shards: [...owned] }),
      onError: (err) => this.logger.warn({ msg: 'shard lease round failed', error: (err as Error)?.message }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.leases.join();
    this.scheduler.start(this.options.tickMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await this.leases.leave();
  }

  /** A lifecycle message from the bus: queue its webhook (a duplicate delivery of the message is a no-op). */
  async queue(message: LifecycleMessage): Promise<void> {
    const prepared = (await this.store.readStream(attemptStreamId(message.attemptId), { maxCount: 1 }))[0];
    const partnerId = prepared?.data['partnerId'];
    if (typeof partnerId !== 'string' || !this.partners.get(partnerId)?.callbackUrl) return; // nobody to call
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

  /** One pass over every attempt with due webhooks (serialized: see PassScheduler). */
  tick(): Promise<void> {
    return this.scheduler.run();
  }

  private async pass(): Promise<void> {
    try {
      await this.leases.ensureCurrent();
      await this.discover();
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
    } catch (err) {
      this.logger.error(`dispatcher pass failed: ${(err as Error)?.message ?? String(err)}`);
    }
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
      this.logger.log({ msg: `webhook ${outcome}`, attemptId, eventId: due.eventId, event: due.event });
    return outcome === 'failed' ? { pending, progressed: false } : { pending: pending - 1, progressed: true };
  }

  private failed(attemptId: string, err: unknown): number {
    this.logger.warn({
      msg: 'webhook delivery pass failed',
      attemptId,
      error: (err as Error)?.message ?? String(err),
    });
    return 1;
  }

  /** Attempts with webhook streams written since the last pass (by queue(), the CLI or another process). */
  private async discover(): Promise<void> {
    this.position = await readAllPaged(
      this.store,
      { after: this.position, streamPrefixes: ['webhook-'] },
      (event) => this.open.add(event.streamId.slice('webhook-'.length)),
    );
  }
}

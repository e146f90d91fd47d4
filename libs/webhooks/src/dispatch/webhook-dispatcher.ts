import { Inject, Injectable, Logger } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import {
  attemptIdOfWebhookStream,
  attemptStreamId,
  type QueueWebhook,
  WEBHOOK_STREAM_PREFIX,
  type WebhookStreamEvent,
  webhookStreamEventShapes,
} from '@svc/domain';
import {
  EVENT_STORE,
  type EventStore,
  eventsOfDecider,
  type Projected,
  projectedEvents,
} from '@svc/event-store';
import { CatchUpWorker, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { type LifecycleMessage } from '@svc/messaging';
import { CLOCK, type Clock, PARTNER_DIRECTORY, type PartnerDirectory } from '@svc/platform';
import { WEBHOOKS_OPTIONS, type WebhooksOptions } from '../webhooks.options';
import { DeliveryRuns } from './delivery-runs';
import { KnownQueues } from './known-queues';
import { BACKLOG_AGE_MS, PartnerTurns } from './partner-turns';
import { AttemptFolds } from './webhook-payload';
import { webhookMetrics } from './webhook-metrics';
import { commandWebhooks } from './webhook-stream';
import { lifecycleMessageOf, sameLifecycleMessage } from '../outbox/lifecycle-message-of';
import { CallbackAddressPolicy, defaultAllowedCallbackAddresses } from '../delivery/callback-address-policy';

/** The lease group of the dispatcher instances: `lease-webhook-dispatcher-<shard>` streams. */
export const DISPATCHER_LEASE_GROUP = 'webhook-dispatcher';
/** How often the dispatcher saves its log position and its list of attempts with webhooks (and at shutdown). */
export const DISPATCHER_CHECKPOINT_EVERY_MS = 5_000;

/**
 * What the dispatcher reads of the log: every webhook delivery stream, each event of a type the webhook delivery
 * decider knows and of the shape it folds (its own guard). Another type is skipped, a malformed event quarantined
 * (CatchUpWorker).
 */
export const dispatcherReads = projectedEvents<WebhookStreamEvent>({
  name: DISPATCHER_LEASE_GROUP,
  streamPrefixes: [WEBHOOK_STREAM_PREFIX],
  ...eventsOfDecider(webhookStreamEventShapes),
});

/**
 * Delivers each attempt's lifecycle webhooks to its partner's callback URL, in order per attempt (the next event
 * waits until the previous one was delivered or abandoned; different attempts do not wait for each other), with
 * the retry schedule of the webhook-delivery decider. Every try is recorded on `webhook-<attemptId>`, so pending
 * retries survive a restart: the work list is rebuilt from those streams.
 *
 * A queued webhook is tried at once (DeliveryRuns: per-partner limits and circuit breakers, nothing shared between
 * partners); the passes, every `tickMs`, only bring back retries that came due and attempts whose webhooks another
 * process queued, and never wait for a try. The store work of queueing and trying (and of a recovery, takeTurn) is
 * taken in turns per partner (PartnerTurns), so one partner's backlog does not hold the others' webhooks.
 *
 * Several instances share the attempts by shard (`shardOf(attemptId)`, leased like the tracker's): any instance may
 * queue a webhook (whichever consumed the lifecycle message), but only the holder of the attempt's shard delivers,
 * so per-attempt order holds across instances, and a dead instance's attempts move on once its leases expire.
 */
@Injectable()
export class WebhookDispatcher extends CatchUpWorker<WebhookStreamEvent> {
  private readonly open = new Set<string>();
  private readonly runs: DeliveryRuns;
  /** Each attempt's webhook queue as last written here: commands and runs skip reading it back. */
  private readonly queues = new KnownQueues();
  /** Each attempt folded up to the last event read here: a body reads only the events after it. */
  private readonly folds = new AttemptFolds();
  /** This process's webhook store work, the partners taking turns (PartnerTurns). */
  private readonly turns = new PartnerTurns();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PARTNER_DIRECTORY) private readonly partners: PartnerDirectory,
    @Inject(CHAIN_REGISTRY) chains: ChainRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOKS_OPTIONS) options: WebhooksOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    const logger = new Logger('WebhookDispatcher');
    super({
      store,
      clock,
      sharing,
      group: DISPATCHER_LEASE_GROUP,
      logger,
      ownershipMessage: 'delivering for shards',
      reads: dispatcherReads,
      tickMs: options.tickMs,
      checkpointEveryMs: DISPATCHER_CHECKPOINT_EVERY_MS,
    });
    this.runs = new DeliveryRuns({
      store,
      chains,
      clock,
      partners,
      timeoutMs: options.timeoutMs,
      addresses: new CallbackAddressPolicy(
        options.allowedCallbackAddresses ?? defaultAllowedCallbackAddresses(false),
      ),
      queues: this.queues,
      folds: this.folds,
      turns: this.turns,
      concurrency: options.concurrency,
      breaker: options.breaker,
      owns: (attemptId) => this.leases.ownsKey(attemptId),
      settled: (attemptId) => this.open.delete(attemptId),
      logger,
    });
  }

  /** A lifecycle message from the bus: queue its webhook (a duplicate is a no-op) and try it at once. */
  private readonly refusedLog = new Logger('WebhookDispatcher');

  async queue(message: LifecycleMessage): Promise<void> {
    // N-M8: a message is only a claim. The webhook is queued (and later signed) only for the event the attempt stream
    // holds at that revision, exactly as the outbox made it; anything else is dropped and counted.
    if (!(await this.isRecordedLifecycle(message))) {
      webhookMetrics.lifecycleRefused.inc();
      this.refusedLog.warn({ msg: 'lifecycle message refused: the attempt stream holds no such event' });
      return;
    }
    const partnerId = await this.partnerOf(message.attemptId);
    if (partnerId === null || !this.partners.get(partnerId)?.callbackUrl) return; // nobody to call
    const command: QueueWebhook = {
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
    };
    // A lifecycle event that occurred long ago (the outbox catching up after an outage) is backlog.
    const backlog = this.clock.now() - message.occurredAt > BACKLOG_AGE_MS;
    const { state } = await this.turns.run(
      partnerId,
      () => commandWebhooks(this.store, message.attemptId, `queue:${message.eventId}`, command, this.queues),
      { backlog },
    );
    this.open.add(message.attemptId);
    this.runs.kick(message.attemptId, message.occurredAt, state);
  }

  /**
   * The attempt's webhook stream was changed here (a redelivery, a retry brought forward): its head may be due, try
   * it now rather than at the next pass. Only where this instance delivers for the attempt's shard. `backlog`: what
   * it sends is backlog whatever the events' age (a recovery's), PartnerTurns.
   */
  nudge(attemptId: string, backlog = false): void {
    this.queues.forget(attemptId); // written elsewhere than through this dispatcher's commands: read it again
    this.open.add(attemptId);
    this.runs.changed(attemptId);
    this.runs.kick(attemptId, undefined, undefined, backlog);
  }

  /**
   * Runs `step`, store work on the partner's behalf done outside the dispatcher (a recovery, one attempt at a time),
   * in one of the partner's turns, as backlog: it gives way to every partner's live webhooks and takes turns with
   * other partners' backlog, ahead of the partner's own backlog deliveries waiting (the partner waits for its answer).
   */
  takeTurn<T>(partnerId: string, step: () => Promise<T>): Promise<T> {
    return this.turns.run(partnerId, step, { ahead: true, backlog: true });
  }

  /** A pass (catch-up, then every due attempt started), resolving once every try it started is over: for tests. */
  override async tick(): Promise<void> {
    await super.tick();
    await this.idle();
  }

  /** Resolves once no try is in flight (tests). */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /**
   * Attempts with webhook streams written since the last pass (by the CLI, the control plane or another process).
   * What this dispatcher wrote itself (its copy of the queue holds it already) was acted on when it was written: a
   * recovery's thousands of recorded tries do not each open their attempt again for the next pass to look at.
   */
  protected override observe(event: Projected<WebhookStreamEvent>): void {
    const attemptId = attemptIdOfWebhookStream(event.streamId);
    if (!this.queues.seen(attemptId, event.revision)) return;
    this.open.add(attemptId);
    this.runs.changed(attemptId);
  }

  /** Starts a run for every attempt of this instance's shards that may have a due webhook; awaits none of them. */
  protected override work(): Promise<void> {
    for (const attemptId of this.open) this.runs.kick(attemptId);
    webhookMetrics.queueDepth.set(this.runs.depth);
    webhookMetrics.endpointsOpen.set(this.runs.endpointsOpen);
    return Promise.resolve();
  }

  /** At shutdown: no new try starts, and those in flight finish (and are recorded) before the final checkpoint. */
  protected override drain(): Promise<void> {
    return this.runs.stop();
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

  /**
   * The partner of the attempt, from its first event (AttemptPrepared); null for an attempt never prepared. The fold
   * is kept: the body of the attempt's first webhook reads on from it.
   */
  private async isRecordedLifecycle(message: LifecycleMessage): Promise<boolean> {
    const wellFormed =
      typeof message === 'object' &&
      message !== null &&
      typeof message.attemptId === 'string' &&
      Number.isSafeInteger(message.revision) &&
      message.revision >= 0;
    if (!wellFormed) return false;
    const [stored] = await this.store.readStream(attemptStreamId(message.attemptId), {
      fromRevision: message.revision,
      maxCount: 1,
    });
    return stored?.revision === message.revision && sameLifecycleMessage(message, lifecycleMessageOf(stored));
  }

  private async partnerOf(attemptId: string): Promise<string | null> {
    const known = this.runs.attemptPartners.of(attemptId);
    if (known !== undefined) return known;
    const state = await this.folds.at(this.store, attemptId, 0);
    if (state.status === 'none') return null;
    this.runs.attemptPartners.remember(attemptId, state.prepared.partnerId);
    return state.prepared.partnerId;
  }
}

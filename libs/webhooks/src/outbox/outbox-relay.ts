import { ATTEMPT_STREAM_PREFIX } from '@svc/domain';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '@svc/event-store';
import { ShardedWorker, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { MESSAGE_BUS, type MessageBus, Topic } from '@svc/messaging';
import { CLOCK, type Clock, withRemoteParent } from '@svc/platform';
import { lifecycleMessageOf } from './lifecycle-message-of';
import { outboxMetrics } from './outbox-metrics';

export const OUTBOX_SUBSCRIPTION_ID = 'outbox-attempt-lifecycle';
/** One lease (shard 0): exactly one instance relays, another takes over when it dies. */
export const OUTBOX_LEASE_GROUP = 'outbox-relay';

/** The relay lost its lease mid-subscription: it stops, and the new holder resumes from the stored checkpoint. */
class OutboxLeaseLostError extends Error {
  override readonly name = 'OutboxLeaseLostError';
}

/**
 * The outbox: a catch-up subscription over the attempt streams with a stored checkpoint. Each lifecycle event is
 * published on `attempt.lifecycle` keyed by attemptId, and the checkpoint moves only after the bus accepted it, so a
 * restart resumes from the checkpoint: duplicates are possible (consumers dedupe by eventId), loss is not.
 *
 * With several dispatcher instances only the holder of the relay's single lease runs the subscription, so the
 * events go out once and in store order; when it dies, another instance takes the lease and resumes. When its own
 * lease lapses mid-stream (a stalled process), it stops before publishing the next event and resumes from the
 * checkpoint once a lease round has renewed the lease.
 */
@Injectable()
export class OutboxRelay extends ShardedWorker {
  /** The running subscription; `ended` once it stopped on its own (an error, or the lease lapsed mid-stream). */
  private current: { subscription: Subscription | null; ended: boolean } | null = null;
  /** reconcile() calls, one after another. */
  private tail: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    super({
      store,
      clock,
      sharing,
      group: OUTBOX_LEASE_GROUP,
      shardCount: 1,
      logger: new Logger('OutboxRelay'),
      ownershipMessage: 'outbox lease',
    });
  }

  protected override async afterJoin(): Promise<void> {
    await this.reconcile();
  }

  protected override async beforeLeave(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.reconcile();
  }

  /** Also after a lapse between rounds (reported as lost, then owned again): the relay resumes. */
  protected override onOwnershipChange(): void {
    void this.reconcile();
  }

  /** Whether the subscription runs: for tests and diagnostics. */
  get relaying(): boolean {
    return this.current !== null && !this.current.ended;
  }

  /** Runs the subscription exactly while this instance holds the lease; calls never overlap. */
  private reconcile(): Promise<void> {
    this.tail = this.tail
      .then(() => this.apply())
      .catch((err: unknown) => {
        this.worker.logger.warn({
          msg: 'outbox relay did not start; retrying in 1 s',
          error: (err as Error)?.message,
        });
        this.retryIn(1000);
      });
    return this.tail;
  }

  private async apply(): Promise<void> {
    if (this.current?.ended) {
      const ended = this.current;
      this.current = null;
      await ended.subscription?.stop(); // already over: this only releases what it held
    }
    const holding = !this.stopped && this.leases.owns(0);
    if (holding && !this.current) {
      this.worker.logger.log({ msg: 'relaying the outbox' });
      const run: { subscription: Subscription | null; ended: boolean } = { subscription: null, ended: false };
      this.current = run;
      try {
        run.subscription = await this.store.subscribe({
          subscriptionId: OUTBOX_SUBSCRIPTION_ID,
          streamPrefixes: [ATTEMPT_STREAM_PREFIX],
          handler: (event) => this.publish(event),
          onError: (err) => {
            // The failed event was not checkpointed: the next subscription delivers it again.
            run.ended = true;
            if (err instanceof OutboxLeaseLostError) {
              this.worker.logger.warn({
                msg: 'outbox lease lapsed: relay paused until the lease is renewed',
              });
              return; // the next lease round reports the lapse and the renewal
            }
            this.worker.logger.warn({
              msg: 'outbox relay stopped; resuming in 1 s',
              error: (err as Error)?.message,
            });
            this.retryIn(1000);
          },
        });
      } catch (err) {
        run.ended = true;
        throw err;
      }
    } else if (!holding && this.current) {
      const run = this.current;
      this.current = null;
      this.worker.logger.log({ msg: 'outbox lease gone: relay stopped' });
      await run.subscription?.stop();
    }
  }

  private retryIn(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.reconcile(), ms);
  }

  private async publish(event: RecordedEvent): Promise<void> {
    const message = lifecycleMessageOf(event);
    if (!message) return;
    if (!this.leases.owns(0)) throw new OutboxLeaseLostError('the outbox lease lapsed');
    // Sent in the trace the event was recorded in (its metadata), so its webhook deliveries join that trace.
    await withRemoteParent(event.metadata, () =>
      this.bus.emit(Topic.attemptLifecycle, message.attemptId, message),
    );
    outboxMetrics.lag.observe(Math.max(0, this.clock.now() - Date.parse(event.recordedAt)) / 1000);
    outboxMetrics.published.inc();
  }
}

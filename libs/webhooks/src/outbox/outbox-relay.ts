import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  leasesFor,
  type ShardLeases,
  type Subscription,
  WORK_SHARING,
  type WorkSharing,
} from '@svc/event-store';
import { MESSAGE_BUS, type MessageBus, Topic } from '@svc/messaging';
import { CLOCK, type Clock } from '@svc/platform';
import { type LifecycleMessage, WEBHOOK_EVENT_OF } from './lifecycle-message';
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
 * events go out once and in store order; when it dies, another instance takes the lease and resumes.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private subscription: Subscription | null = null;
  private starting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly lease: ShardLeases;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    this.lease = leasesFor(sharing, {
      store,
      clock,
      group: OUTBOX_LEASE_GROUP,
      shardCount: 1,
      onChange: (owned) => void this.follow(owned.has(0)),
      onError: (err) =>
        this.logger.warn({ msg: 'outbox lease round failed', error: (err as Error)?.message }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.lease.join();
    await this.starting;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.starting;
    await this.subscription?.stop();
    await this.lease.leave();
  }

  /** Runs the subscription while this instance holds the lease. */
  private async follow(holding: boolean): Promise<void> {
    if (holding && !this.subscription && !this.starting) {
      this.logger.log({ msg: 'relaying the outbox' });
      this.starting = this.start().finally(() => (this.starting = null));
    } else if (!holding && this.subscription) {
      this.logger.log({ msg: 'outbox lease gone: relay stopped' });
      const running = this.subscription;
      this.subscription = null;
      await running.stop();
    }
  }

  private async start(): Promise<void> {
    if (this.stopped || !this.lease.owns(0)) return;
    this.subscription = await this.store.subscribe({
      subscriptionId: OUTBOX_SUBSCRIPTION_ID,
      streamPrefixes: ['attempt-'],
      handler: (event) => this.publish(event),
      onError: (err) => {
        // The failed event was not checkpointed: resubscribing redelivers it.
        this.subscription = null;
        if (err instanceof OutboxLeaseLostError) return;
        this.logger.warn(`outbox relay stopped: ${(err as Error)?.message ?? String(err)}; resuming in 1 s`);
        this.retry = setTimeout(() => void this.follow(this.lease.owns(0)), 1000);
      },
    });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    const kind = WEBHOOK_EVENT_OF[event.type];
    if (!kind) return;
    if (!this.lease.owns(0)) throw new OutboxLeaseLostError('the outbox lease lapsed');
    const message: LifecycleMessage = {
      eventId: event.id,
      event: kind,
      attemptId: event.streamId.slice('attempt-'.length),
      revision: event.revision,
      occurredAt: typeof event.data['at'] === 'number' ? event.data['at'] : Date.parse(event.recordedAt),
    };
    await this.bus.emit(Topic.attemptLifecycle, message.attemptId, message);
    outboxMetrics.lag.observe(Math.max(0, this.clock.now() - Date.parse(event.recordedAt)) / 1000);
    outboxMetrics.published.inc();
  }
}

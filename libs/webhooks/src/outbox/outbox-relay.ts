import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '@svc/event-store';
import { MESSAGE_BUS, type MessageBus, Topic } from '@svc/messaging';
import { type LifecycleMessage, WEBHOOK_EVENT_OF } from './lifecycle-message';

export const OUTBOX_SUBSCRIPTION_ID = 'outbox-attempt-lifecycle';

/**
 * The outbox: a catch-up subscription over the attempt streams with a stored checkpoint. Each lifecycle event is
 * published on `attempt.lifecycle` keyed by attemptId, and the checkpoint moves only after the bus accepted it, so a
 * restart resumes from the checkpoint: duplicates are possible (consumers dedupe by eventId), loss is not.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private subscription: Subscription | null = null;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.subscription?.stop();
  }

  private async start(): Promise<void> {
    if (this.stopped) return;
    this.subscription = await this.store.subscribe({
      subscriptionId: OUTBOX_SUBSCRIPTION_ID,
      streamPrefixes: ['attempt-'],
      handler: (event) => this.publish(event),
      onError: (err) => {
        // The failed event was not checkpointed: resubscribing redelivers it.
        this.logger.warn(`outbox relay stopped: ${(err as Error)?.message ?? String(err)}; resuming in 1 s`);
        this.retry = setTimeout(() => void this.start(), 1000);
      },
    });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    const kind = WEBHOOK_EVENT_OF[event.type];
    if (!kind) return;
    const message: LifecycleMessage = {
      eventId: event.id,
      event: kind,
      attemptId: event.streamId.slice('attempt-'.length),
      revision: event.revision,
      occurredAt: typeof event.data['at'] === 'number' ? event.data['at'] : Date.parse(event.recordedAt),
    };
    await this.bus.emit(Topic.attemptLifecycle, message.attemptId, message);
  }
}

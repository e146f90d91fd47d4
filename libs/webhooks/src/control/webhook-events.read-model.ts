import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { WEBHOOK_STREAM_PREFIX } from '@svc/domain';
import { EVENT_STORE, type EventStore, LogFollower } from '@svc/event-store';
import { errorMessage } from '@svc/leases';
import { WebhookEventIndex } from './webhook-event-index';

/** How often the index catches up in the background, so a request seldom has much to read first. */
export const WEBHOOK_INDEX_REFRESH_MS = 1000;

/**
 * The webhook control plane's read model: a WebhookEventIndex fed from the global log (every `webhook-` stream, in
 * log order), on every backend alike and in every replica (each keeps its own). Rebuilt from the log when the process
 * starts and never written anywhere, so it can never disagree with the streams for long.
 *
 * Freshness: every request first catches up with the log (`fresh()`): it sees every webhook event recorded before
 * the request arrived. Catch-ups never overlap; a background pass every WEBHOOK_INDEX_REFRESH_MS keeps them short.
 */
@Injectable()
export class WebhookEventsReadModel implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookEvents');
  readonly index = new WebhookEventIndex();
  private readonly follower: LogFollower;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.follower = new LogFollower(store, {
      streamPrefixes: [WEBHOOK_STREAM_PREFIX],
      onEvent: (event) => this.index.apply(event),
      refreshMs: WEBHOOK_INDEX_REFRESH_MS,
      onError: (err) => this.logger.warn(`webhook index catch-up failed: ${errorMessage(err)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  /** Resolves once the index holds every webhook event recorded before this call. */
  fresh(): Promise<void> {
    return this.follower.fresh();
  }
}

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  EVENT_STORE,
  type EventStore,
  ProjectionRunner,
  READ_MODELS,
  type ReadModelDb,
} from '@svc/event-store';
import { type WebhookEventTable, webhookEventsProjection, webhookEventTableOf } from './webhook-event-table';

/** How often the index catches up in the background, so a request seldom has much to read first. */
export const WEBHOOK_INDEX_REFRESH_MS = 1000;

/**
 * The webhook control plane's read model: the `webhook-events` projection (every `webhook-` stream, in log order) in
 * a table of the read-model database, kept by one checkpointed ProjectionRunner on every backend alike. A restart
 * resumes from the checkpoint; nothing of the history lives in the heap.
 *
 * Freshness: every request first catches up with the log (`fresh()`): it sees every webhook event recorded before
 * the request arrived. Catch-ups never overlap; a background pass every WEBHOOK_INDEX_REFRESH_MS keeps them short.
 */
@Injectable()
export class WebhookEventsReadModel implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookEvents');
  readonly index: WebhookEventTable;
  readonly runner: ProjectionRunner;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(READ_MODELS) db: ReadModelDb) {
    this.runner = new ProjectionRunner(store, db, webhookEventsProjection, {
      refreshMs: WEBHOOK_INDEX_REFRESH_MS,
      onWarning: (message, detail) => this.logger.warn({ ...detail, msg: message }),
    });
    this.index = webhookEventTableOf(db);
  }

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }

  /** Resolves once the index holds every webhook event recorded before this call. */
  fresh(): Promise<void> {
    return this.runner.fresh();
  }
}

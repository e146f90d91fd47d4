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
import { type AttemptLookupIndex } from './attempt-lookup-index';
import { attemptLookupProjection, lookupIndexOf } from './lookup-projection';

/** How often the index catches up in the background, so a query seldom has much to read first. */
export const LOOKUP_REFRESH_MS = 1000;

/**
 * The lookups' read model: the `attempt-lookups` projection (every `attempt-` stream, in log order) in tables of the
 * read-model database, kept by one checkpointed ProjectionRunner on every backend alike (memory, SQLite,
 * EventStoreDB). A restart resumes from the checkpoint; nothing of the history lives in the heap.
 *
 * Freshness: every query first catches up with the log (`fresh()`): it sees every event recorded before the query
 * arrived, so an attempt prepared or a hash reported a moment ago is found. Catch-ups never overlap; queries that
 * arrive during one wait for the next, which starts after they arrived. A background pass every LOOKUP_REFRESH_MS
 * keeps that read short.
 */
@Injectable()
export class AttemptLookupsReadModel implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AttemptLookups');
  readonly index: AttemptLookupIndex;
  readonly runner: ProjectionRunner;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(READ_MODELS) db: ReadModelDb) {
    this.runner = new ProjectionRunner(store, db, attemptLookupProjection, {
      refreshMs: LOOKUP_REFRESH_MS,
      onWarning: (message, detail) => this.logger.warn({ ...detail, msg: message }),
    });
    this.index = lookupIndexOf(db);
  }

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.runner.stop();
  }

  /** Resolves once the index holds every attempt event recorded before this call. */
  fresh(): Promise<void> {
    return this.runner.fresh();
  }
}

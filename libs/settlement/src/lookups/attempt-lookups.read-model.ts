import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ATTEMPT_STREAM_PREFIX, type AttemptEvent, attemptIdOfStream } from '@svc/domain';
import { EVENT_STORE, type EventStore, LogFollower } from '@svc/event-store';
import { errorMessage } from '@svc/leases';
import { AttemptLookupIndex } from './attempt-lookup-index';

/** How often the index catches up in the background, so a query seldom has much to read first. */
export const LOOKUP_REFRESH_MS = 1000;

/**
 * The lookups' read model: an AttemptLookupIndex fed from the global log (every `attempt-` stream, in log order), on
 * every backend alike (memory, SQLite, EventStoreDB) and in every replica (each keeps its own). It is rebuilt from the
 * log when the process starts and never written anywhere, so it can never disagree with the streams for long.
 *
 * Freshness: every query first catches up with the log (`fresh()`): it sees every event recorded before the query
 * arrived, so an attempt prepared or a hash reported a moment ago is found. Catch-ups never overlap; queries that
 * arrive during one wait for the next, which starts after they arrived. A background pass every LOOKUP_REFRESH_MS
 * keeps that read short.
 */
@Injectable()
export class AttemptLookupsReadModel implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AttemptLookups');
  readonly index = new AttemptLookupIndex();
  private readonly follower: LogFollower;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.follower = new LogFollower(store, {
      streamPrefixes: [ATTEMPT_STREAM_PREFIX],
      onEvent: (event) =>
        this.index.apply(attemptIdOfStream(event.streamId), {
          type: event.type,
          data: event.data,
        } as AttemptEvent),
      refreshMs: LOOKUP_REFRESH_MS,
      onError: (err) => this.logger.warn(`lookup index catch-up failed: ${errorMessage(err)}`),
    });
  }

  onApplicationBootstrap(): void {
    this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  /** Resolves once the index holds every attempt event recorded before this call. */
  fresh(): Promise<void> {
    return this.follower.fresh();
  }
}

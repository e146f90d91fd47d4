import { type StreamEvent } from '../aggregate-stream';
import { type EventStore, type Position, type RecordedEvent } from '../event-store.port';
import { laterOf } from '../read-all-paged';
import {
  type ClassificationStats,
  EventClassifier,
  messageOf,
  type QuarantinedEvent,
  quarantinedEvent,
} from './classify-event';
import { perReadModelDb, type Projection, type ReadModelDb } from './projection';

export interface ProjectionRunnerOptions {
  /** A background catch-up this often (after `start()`), so a `fresh()` seldom has much to read. */
  refreshMs: number;
  /** Events per log read and per transaction. Default 500. */
  pageSize?: number;
  /**
   * Told once per process and event type the projection skipped (a type it does not handle), and for every event it
   * quarantined; and for a failed background catch-up (the next one retries from the checkpoint).
   */
  onWarning?: (message: string, detail: Record<string, unknown>) => void;
  /** Time for the quarantine records. */
  now?: () => number;
}

/** What one runner did in this process (diagnostics, metrics, tests). */
export interface ProjectionStats extends ClassificationStats {
  applied: number;
}

const DEFAULT_PAGE_SIZE = 500;

/** What a page did, told (counted, warned of) only once its transaction committed. */
interface PageTally {
  applied: number;
  skipped: string[];
  quarantined: QuarantinedEvent[];
}

/** An evolve threw on the fast path: the page is undone and applied again event by event. */
class IsolateEvents extends Error {}

/** The started runners of each read-model database: what /readyz asks whether they caught up (N-L7). */
const startedRunners = perReadModelDb(() => new Set<ProjectionRunner>());

/**
 * The projections on this read-model database that were started in this process and have not finished a catch-up
 * since (a new replica rebuilding an index, a restart reading what came after its checkpoint): a query of theirs would
 * wait for that catch-up first. Empty once each has caught up once.
 */
export function projectionsCatchingUp(db: ReadModelDb): string[] {
  return [...startedRunners(db)].filter((r) => !r.caughtUp).map((r) => r.name);
}

/**
 * Runs one projection on any store, checkpointed: reads the log after the projection's checkpoint (in pages, each
 * page's writes and the new checkpoint in one transaction of the read-model database), so a restart resumes where it
 * stopped and never replays history. Processes sharing a read-model file share the work: a page is applied only if
 * the checkpoint is still where it was read from, else it is read again from the newer one.
 *
 * Freshness: `fresh()` resolves once every event recorded before the call is applied. Catch-ups never overlap; calls
 * that arrive during one wait for the next, which starts after they arrived (one read serves them all).
 */
export class ProjectionRunner<E extends StreamEvent = StreamEvent> {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private applied = 0;
  private caughtUpOnce = false;
  /** The step every reader of the log shares: upcast, type, guard (classifyEvent), counted and told once kept. */
  private readonly classifier: EventClassifier<E>;
  private readonly statements;
  private readonly pageSize: number;

  constructor(
    private readonly store: EventStore,
    private readonly db: ReadModelDb,
    private readonly projection: Projection<E>,
    private readonly options: ProjectionRunnerOptions,
  ) {
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.classifier = new EventClassifier(projection, { onWarning: options.onWarning });
    this.statements = {
      checkpoint: db.prepare<[string, number], { position: string | null }>(
        'SELECT position FROM projection_checkpoints WHERE projection = ? AND version = ?',
      ),
      create: db.prepare(
        `INSERT INTO projection_checkpoints (projection, version, position, updated_at) VALUES (?, ?, NULL, ?)
         ON CONFLICT (projection, version) DO NOTHING`,
      ),
      move: db.prepare(
        `UPDATE projection_checkpoints SET position = @position, events = events + @events, updated_at = @now
         WHERE projection = @name AND version = @version`,
      ),
      quarantine: db.prepare(
        `INSERT OR REPLACE INTO projection_quarantine
           (projection, version, position, stream_id, revision, event_id, type, reason, recorded_at)
         VALUES (@name, @version, @position, @streamId, @revision, @eventId, @type, @reason, @now)`,
      ),
      quarantined: db.prepare<
        [string, number],
        {
          position: string;
          stream_id: string;
          revision: number;
          event_id: string;
          type: string;
          reason: string;
        }
      >(
        `SELECT position, stream_id, revision, event_id, type, reason FROM projection_quarantine
         WHERE projection = ? AND version = ? ORDER BY position`,
      ),
    };
    db.transaction(() => {
      projection.init(db);
      this.statements.create.run(projection.name, projection.version, this.now());
    }).immediate();
  }

  /** The first catch-up, and the background ones. */
  start(): void {
    if (this.stopped || this.timer) return;
    startedRunners(this.db).add(this);
    this.timer = setInterval(() => {
      if (this.running === null) this.fresh().catch((err) => this.warnFailed(err));
    }, this.options.refreshMs);
    this.timer.unref();
    this.fresh().catch((err) => this.warnFailed(err));
  }

  /** No further catch-up; resolves once the one in flight (if any) ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    startedRunners(this.db).delete(this);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([this.running, this.queued]);
  }

  /** Resolves once every event of the projection's streams recorded before this call is applied. */
  fresh(): Promise<void> {
    if (this.running === null) {
      this.running = this.catchUp().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.fresh();
      });
    return this.queued;
  }

  /** Whether a catch-up ended in this process: every event recorded before it began is applied. */
  get caughtUp(): boolean {
    return this.caughtUpOnce;
  }

  /** The projection's name (`attempt-lookups`, `webhook-events`). */
  get name(): string {
    return this.projection.name;
  }

  /** The checkpoint: every event of its streams up to here is applied (undefined: none yet). */
  get position(): Position | undefined {
    return this.readCheckpoint();
  }

  get stats(): ProjectionStats {
    return { applied: this.applied, ...this.classifier.stats };
  }

  /** The events this projection (at its version) quarantined, in log order. */
  quarantined(): QuarantinedEvent[] {
    return this.statements.quarantined.all(this.projection.name, this.projection.version).map((row) => ({
      position: row.position,
      streamId: row.stream_id,
      revision: row.revision,
      eventId: row.event_id,
      type: row.type,
      reason: row.reason,
    }));
  }

  /** Empties the read model and moves its checkpoint to the beginning: the next catch-up rebuilds it. */
  rebuild(): void {
    this.db
      .transaction(() => {
        this.projection.truncate(this.db);
        this.statements.move.run({ ...this.key(), position: null, events: 0, now: this.now() });
        this.db
          .prepare('DELETE FROM projection_quarantine WHERE projection = ? AND version = ?')
          .run(this.projection.name, this.projection.version);
      })
      .immediate();
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const from = this.readCheckpoint();
      const page = await this.store.readAllPage({
        after: from,
        streamPrefixes: [...this.projection.streamPrefixes],
        maxCount: this.pageSize,
      });
      const to = laterOf(page.events.at(-1)?.position, page.scannedTo) ?? from;
      // Fast path: the page in one transaction, no savepoint per event. An evolve that throws undoes the whole page,
      // which is then applied again with a savepoint around each event, so only that event is quarantined.
      let outcome = this.applyPage(from, to, page.events, false);
      if (outcome === 'isolate') outcome = this.applyPage(from, to, page.events, true);
      if (outcome === 'applied' && page.events.length < this.pageSize) {
        this.caughtUpOnce = true;
        return;
      }
    }
  }

  /** One page and the new checkpoint in one transaction; what it counted and warned of once it committed. */
  private applyPage(
    from: Position | undefined,
    to: Position | undefined,
    events: readonly RecordedEvent[],
    isolated: boolean,
  ): 'applied' | 'raced' | 'isolate' {
    const tally: PageTally = { applied: 0, skipped: [], quarantined: [] };
    try {
      const applied = this.db
        .transaction(() => {
          // Another process on the same file applied this page meanwhile: read on from where it stopped.
          if (this.readCheckpoint() !== from) return false;
          const scratch = new Map<string, unknown>();
          for (const event of events) this.apply(event, isolated, tally, scratch);
          this.projection.flush?.(this.db, scratch);
          this.statements.move.run({
            ...this.key(),
            position: to ?? null,
            events: events.length,
            now: this.now(),
          });
          return true;
        })
        .immediate();
      if (!applied) return 'raced';
    } catch (error) {
      if (error instanceof IsolateEvents) return 'isolate';
      throw error;
    }
    this.applied += tally.applied;
    for (const type of tally.skipped) this.classifier.tally({ kind: 'skipped', type });
    for (const bad of tally.quarantined) this.classifier.quarantined(bad);
    return 'applied';
  }

  private apply(
    recorded: RecordedEvent,
    isolated: boolean,
    tally: PageTally,
    scratch: Map<string, unknown>,
  ): void {
    const { projection } = this;
    const classified = this.classifier.classify(recorded);
    if (classified.kind === 'skipped') {
      tally.skipped.push(classified.type);
      return;
    }
    if (classified.kind === 'quarantined') {
      this.quarantine(classified.quarantined, tally);
      return;
    }
    const projected = classified.event;
    if (!isolated) {
      try {
        projection.evolve(this.db, projected, scratch);
      } catch {
        throw new IsolateEvents();
      }
      tally.applied++;
      return;
    }
    try {
      // A savepoint: an event that fails half-way leaves nothing behind.
      // Its own scratch, written before the savepoint ends.
      this.db.transaction(() => {
        const own = new Map<string, unknown>();
        projection.evolve(this.db, projected, own);
        projection.flush?.(this.db, own);
      })();
      tally.applied++;
    } catch (error) {
      this.quarantine(quarantinedEvent(recorded, `evolve failed: ${messageOf(error)}`), tally);
    }
  }

  private quarantine(event: QuarantinedEvent, tally: PageTally): void {
    this.statements.quarantine.run({ ...this.key(), ...event, now: this.now() });
    tally.quarantined.push(event);
  }

  private readCheckpoint(): Position | undefined {
    const row = this.statements.checkpoint.get(this.projection.name, this.projection.version);
    return row?.position ?? undefined;
  }

  private key(): { name: string; version: number } {
    return { name: this.projection.name, version: this.projection.version };
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private warnFailed(error: unknown): void {
    if (!this.stopped)
      this.options.onWarning?.(`projection ${this.projection.name} catch-up failed`, {
        projection: this.projection.name,
        error: messageOf(error),
      });
  }
}

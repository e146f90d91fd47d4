import { randomUUID } from 'node:crypto';
import {
  type ClassificationStats,
  EventClassifier,
  type Position,
  type Projected,
  type ProjectedEvents,
  type QuarantinedEvent,
  readAllPaged,
  type StreamEvent,
} from '@svc/event-store';
import { PassScheduler } from '@svc/platform';
import { ShardedWorker, type ShardedWorkerOptions } from './sharded-worker';
import { readWorkerCheckpoint, writeWorkerCheckpoint } from './worker-checkpoint';
import { errorMessage } from './worker-logger';

export interface CatchUpWorkerOptions<E extends StreamEvent = StreamEvent> extends ShardedWorkerOptions {
  /**
   * What the worker reads of the global log, declared once as every reader of it declares it (the projection seam's
   * ProjectedEvents): its streams, the event types it handles, their guard, an upcast hook. `observe` sees only
   * typed events that passed the guard.
   */
  reads: ProjectedEvents<E>;
  /** A pass every this often (0: only on demand, as tests do). */
  tickMs: number;
  /** The position and the worker's state are saved at most this often (and at shutdown). */
  checkpointEveryMs: number;
}

/** The quarantined events a worker keeps for an operator (`stats.recentlyQuarantined`), newest last. */
export const KEPT_QUARANTINED_EVENTS = 100;

/** What a worker's catch-up did in this process: events observed, skipped per type, quarantined. */
export interface CatchUpStats extends ClassificationStats {
  observed: number;
  /** The newest quarantined events (at most KEPT_QUARANTINED_EVENTS), each also logged when it was met. */
  recentlyQuarantined: QuarantinedEvent[];
}

/**
 * A sharded worker that works in passes: each pass renews the leases if they lapsed, catches up with the global log
 * since the last pass (`observe` sees each new event of its streams, in store order), then does its work on the keys
 * of the shards it holds. Passes never overlap (PassScheduler). The log position and the worker's own state are
 * checkpointed, so a restart resumes from there instead of re-reading the whole log.
 *
 * The catch-up reads the log through the projection seam's classification (EventClassifier, the step ProjectionRunner
 * takes too): an event of a type the worker does not declare is skipped (counted, logged once per type), one that
 * fails its guard is quarantined and the worker goes on with the next. A worker has no read-model database, so its
 * quarantine is a warning logged once per event with its position, stream, revision, type and reason, a count, and
 * the newest KEPT_QUARANTINED_EVENTS kept in memory (`stats`). It is not written to the event store: every instance
 * of a group reads the whole log, so each would append the same record, and a reader of the log would write to it.
 * The checkpoint moves past a quarantined event like past any other: a restart does not meet it again, the log line
 * is its lasting record (the command seam refuses the event's stream on its own: MalformedEventError).
 */
export abstract class CatchUpWorker<E extends StreamEvent = StreamEvent> extends ShardedWorker {
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());
  private checkpointedAt = 0;
  private checkpointedPosition: Position | undefined;
  private readonly classifier: EventClassifier<E>;
  private observed = 0;
  private readonly recentlyQuarantined: QuarantinedEvent[] = [];

  protected constructor(private readonly catchUp: CatchUpWorkerOptions<E>) {
    super(catchUp);
    this.classifier = new EventClassifier(catchUp.reads, {
      onWarning: (msg, detail) => catchUp.logger.warn({ msg, ...detail }),
    });
  }

  /** What the catch-up observed, skipped and quarantined in this process (diagnostics, tests). */
  get stats(): CatchUpStats {
    return {
      observed: this.observed,
      ...this.classifier.stats,
      recentlyQuarantined: [...this.recentlyQuarantined],
    };
  }

  /** One pass (serialized with the timer's), also callable directly, e.g. by tests and operators. */
  tick(): Promise<void> {
    return this.scheduler.run();
  }

  /** An event of the followed streams, of a declared type and shape, newer than any seen before. */
  protected abstract observe(event: Projected<E>): void;
  /** The pass's work, after the catch-up. */
  protected abstract work(): Promise<void>;
  /** What the worker keeps across restarts (plain JSON), consistent with the position it is saved with. */
  protected abstract snapshot(): unknown;
  /** Takes back a saved state; false when it does not fit (the log is then read again from the beginning). */
  protected abstract restore(state: unknown): boolean;
  /** At shutdown, after the last pass: wait for work still running, so the final checkpoint includes it. */
  protected async drain(): Promise<void> {}

  protected override async beforeJoin(): Promise<void> {
    const checkpoint = await readWorkerCheckpoint(this.catchUp.store, this.catchUp.group).catch(() => null);
    if (checkpoint === null || !this.restore(checkpoint.state)) return;
    this.position = checkpoint.position ?? undefined;
    this.checkpointedPosition = this.position;
  }

  protected override afterJoin(): Promise<void> {
    this.scheduler.start(this.catchUp.tickMs);
    return Promise.resolve();
  }

  protected override async beforeLeave(): Promise<void> {
    await this.scheduler.stop();
    await this.drain();
    await this.checkpoint(true).catch(() => undefined);
  }

  private async pass(): Promise<void> {
    try {
      await this.leases.ensureCurrent();
      this.position = await readAllPaged(
        this.catchUp.store,
        { after: this.position, streamPrefixes: [...this.catchUp.reads.streamPrefixes] },
        (recorded) => {
          const classified = this.classifier.read(recorded);
          if (classified.kind === 'event') {
            this.observed++;
            this.observe(classified.event);
          } else if (classified.kind === 'quarantined') {
            this.recentlyQuarantined.push(classified.quarantined);
            if (this.recentlyQuarantined.length > KEPT_QUARANTINED_EVENTS) this.recentlyQuarantined.shift();
          }
        },
      );
      await this.work();
      await this.checkpoint(false);
    } catch (err) {
      this.catchUp.logger.error({ msg: `${this.catchUp.group} pass failed`, error: errorMessage(err) });
    }
  }

  private async checkpoint(force: boolean): Promise<void> {
    const now = this.catchUp.clock.now();
    if (this.position === this.checkpointedPosition) return;
    if (!force && now - this.checkpointedAt < this.catchUp.checkpointEveryMs) return;
    await writeWorkerCheckpoint(
      this.catchUp.store,
      this.catchUp.group,
      { position: this.position ?? null, state: this.snapshot() },
      randomUUID(),
    );
    this.checkpointedAt = now;
    this.checkpointedPosition = this.position;
  }
}

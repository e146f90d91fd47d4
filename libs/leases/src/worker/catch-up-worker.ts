import { randomUUID } from 'node:crypto';
import { type Position, readAllPaged, type RecordedEvent } from '@svc/event-store';
import { PassScheduler } from '@svc/platform';
import { ShardedWorker, type ShardedWorkerOptions } from './sharded-worker';
import { readWorkerCheckpoint, writeWorkerCheckpoint } from './worker-checkpoint';
import { errorMessage } from './worker-logger';

export interface CatchUpWorkerOptions extends ShardedWorkerOptions {
  /** The streams whose events the worker follows in the global log. */
  streamPrefixes: string[];
  /** A pass every this often (0: only on demand, as tests do). */
  tickMs: number;
  /** The position and the worker's state are saved at most this often (and at shutdown). */
  checkpointEveryMs: number;
}

/**
 * A sharded worker that works in passes: each pass renews the leases if they lapsed, catches up with the global log
 * since the last pass (`observe` sees each new event of its streams, in store order), then does its work on the keys
 * of the shards it holds. Passes never overlap (PassScheduler). The log position and the worker's own state are
 * checkpointed, so a restart resumes from there instead of re-reading the whole log.
 */
export abstract class CatchUpWorker extends ShardedWorker {
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());
  private checkpointedAt = 0;
  private checkpointedPosition: Position | undefined;

  protected constructor(private readonly catchUp: CatchUpWorkerOptions) {
    super(catchUp);
  }

  /** One pass (serialized with the timer's), also callable directly, e.g. by tests and operators. */
  tick(): Promise<void> {
    return this.scheduler.run();
  }

  /** An event of the followed streams, newer than any seen before. */
  protected abstract observe(event: RecordedEvent): void;
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
        { after: this.position, streamPrefixes: this.catchUp.streamPrefixes },
        (event) => this.observe(event),
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

import type Database from 'better-sqlite3';
import { type AppendSignal } from '../append-signal';

/**
 * Appends made by other processes on the same file reach no in-process signal. While a subscription watches, this
 * looks at SQLite's `data_version` every `intervalMs`: it changes only when another connection committed, so this
 * process's own appends (already signalled with their stream ids) never cost a poll read. When it changed, every
 * subscription is woken, since which streams were written is not known without reading them.
 */
export class OtherWritersPoll {
  private readonly dataVersion: Database.Statement<[], number>;
  private timer: NodeJS.Timeout | undefined;
  private version: number | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly signal: AppendSignal,
    private readonly intervalMs: number,
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Starts polling unless it runs; it stops by itself once no subscription watches. */
  start(): void {
    if (this.timer !== undefined) return;
    this.version = this.dataVersion.get();
    this.timer = setInterval(() => this.check(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    if (!this.signal.watched || !this.db.open) {
      this.stop();
      return;
    }
    try {
      const version = this.dataVersion.get();
      if (version === this.version) return;
      this.version = version;
    } catch {
      // The subscriptions' own reads meet the same failure and report it through their usual path.
    }
    this.signal.notifyAll();
  }
}

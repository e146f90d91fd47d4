import { type EventStore, type Position, type RecordedEvent } from './event-store.port';
import { readAllPaged } from './read-all-paged';

export interface LogFollowerOptions {
  /** Only streams whose id starts with one of these prefixes. */
  streamPrefixes: string[];
  /** Called once per event, in global order, one at a time (never twice for one event). */
  onEvent: (event: RecordedEvent) => void;
  /** How often a background pass catches up, so a `fresh()` seldom has much to read. */
  refreshMs: number;
  /** Events per log read (default: readAllPaged's). */
  pageSize?: number;
  /** A failed background pass (the next one retries from the last event handed over). */
  onError: (error: unknown) => void;
}

/**
 * Feeds an in-memory read model from the global log, on every backend alike: from the start when the process starts,
 * then after the last position. `fresh()` resolves once every event recorded before the call was handed over, so a
 * query that awaits it sees everything written before it arrived. Catch-ups never overlap: calls that arrive during
 * one wait for the next, which starts after they arrived (one read serves them all). A background pass every
 * `refreshMs` (after `start()`) keeps that read short. A catch-up that fails part-way resumes after the last event it
 * handed over, so no event is handed over twice.
 */
export class LogFollower {
  private position: Position | undefined;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly options: LogFollowerOptions,
  ) {}

  /** The first catch-up, and the background passes. */
  start(): void {
    if (this.stopped || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running === null) this.fresh().catch((err) => this.warn(err));
    }, this.options.refreshMs);
    this.timer.unref();
    this.fresh().catch((err) => this.warn(err));
  }

  /** No further catch-up; resolves once the one in flight (if any) ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([this.running, this.queued]);
  }

  /** Resolves once every event recorded before this call was handed to `onEvent`. */
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

  private async catchUp(): Promise<void> {
    if (this.stopped) return;
    await readAllPaged(
      this.store,
      { after: this.position, streamPrefixes: this.options.streamPrefixes, pageSize: this.options.pageSize },
      (event) => {
        this.options.onEvent(event);
        this.position = event.position;
      },
    );
  }

  private warn(err: unknown): void {
    if (!this.stopped) this.options.onError(err);
  }
}

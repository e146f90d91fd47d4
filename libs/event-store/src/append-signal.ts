import { matchesPrefixes } from './matches-prefixes';

/**
 * In-process "something was appended" notification for polling subscriptions. Each subscription watches its own
 * stream prefixes, so a nonce, a lease renewal or a checkpoint wakes only the subscriptions that follow it.
 */
export class AppendSignal {
  private readonly watches = new Set<AppendWatch>();

  /** Whether any subscription is watching (the SQLite store polls for other processes only then). */
  get watched(): boolean {
    return this.watches.size > 0;
  }

  /** This process appended to `streamId`: wakes the subscriptions that follow it. */
  notify(streamId: string): void {
    for (const watch of this.watches) if (watch.follows(streamId)) watch.touch();
  }

  /** Appends whose streams are not known (another process wrote to the store): wakes every subscription. */
  notifyAll(): void {
    for (const watch of this.watches) watch.touch();
  }

  /** Watches appends to streams starting with one of `prefixes` (none: every stream) until `close()`. */
  watch(prefixes: readonly string[]): AppendWatch {
    const watch = new AppendWatch(prefixes, () => this.watches.delete(watch));
    this.watches.add(watch);
    return watch;
  }
}

/**
 * One subscription's view of the signal: a flag set by every matching append and cleared by `reading()`, so
 * appends made while the subscription reads or handles events are never missed, and any number of them before it
 * reads again cost one read. A wake-up is delivered on the next turn of the event loop (setImmediate), so a burst
 * of appends in one turn (a loop of awaited appends runs in microtasks) is one read, not one per append.
 */
export class AppendWatch {
  private pending = true;
  private waiter: (() => void) | undefined;
  private scheduled = false;

  constructor(
    private readonly prefixes: readonly string[],
    readonly close: () => void,
  ) {}

  follows(streamId: string): boolean {
    return matchesPrefixes(streamId, this.prefixes);
  }

  touch(): void {
    this.pending = true;
    if (this.waiter === undefined || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.release();
    });
  }

  /** Call right before reading the log: what is appended after this wakes the next `wait`. */
  reading(): void {
    this.pending = false;
  }

  /** Resolves once a matching append came since `reading()` (at once if one already did), or when `abort` fires. */
  wait(abort: AbortSignal): Promise<void> {
    if (this.pending || abort.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        abort.removeEventListener('abort', done);
        this.waiter = undefined;
        resolve();
      };
      this.waiter = done;
      abort.addEventListener('abort', done, { once: true });
    });
  }

  private release(): void {
    if (this.pending) this.waiter?.();
  }
}

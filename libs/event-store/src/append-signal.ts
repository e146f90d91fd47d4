/**
 * In-process "something was appended" notification for polling subscriptions. The version counter closes
 * the race between a subscription finding nothing new and starting to wait: it waits only if no append
 * happened since the version it read before its query.
 */
export class AppendSignal {
  private current = 0;
  private readonly waiters = new Set<() => void>();

  get version(): number {
    return this.current;
  }

  notify(): void {
    this.current++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves on the next append after `since`, after `timeoutMs` (if given), or when `abort` fires. */
  wait(since: number, abort: AbortSignal, timeoutMs?: number): Promise<void> {
    if (this.current !== since || abort.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        abort.removeEventListener('abort', wake);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
      abort.addEventListener('abort', wake, { once: true });
    });
  }
}

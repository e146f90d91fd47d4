/**
 * Runs a background pass every `intervalMs` and on demand. Passes never overlap; a request during a pass schedules
 * exactly one more pass after it (work that arrived meanwhile is not missed), and further requests join that one.
 */
export class PassScheduler {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly pass: () => Promise<void>) {}

  /** Starts the interval (0 = only on demand). */
  start(intervalMs: number): void {
    if (intervalMs > 0) this.timer = setInterval(() => void this.run(), intervalMs);
  }

  /** Stops the interval and waits for the pass in progress (and one scheduled) to finish. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await (this.queued ?? this.current);
  }

  run(): Promise<void> {
    if (!this.current) {
      this.current = this.pass().finally(() => (this.current = null));
      return this.current;
    }
    this.queued ??= this.current.then(() => {
      this.queued = null;
      return this.run();
    });
    return this.queued;
  }
}

/** How often expired rows are deleted, and how many at most at once. */
export interface SweepOptions {
  /** One batch after this many writes. */
  every: number;
  /** Rows deleted by one batch at most. */
  batch: number;
}

/** Up to 8 expired rows deleted per write: the table shrinks faster than any write rate can grow it. */
export const DEFAULT_SWEEP: SweepOptions = { every: 64, batch: 512 };

/**
 * Deletes expired rows in bounded batches, amortized over the writes: no timer, and a table nobody writes to does
 * not grow. Reads never depend on it (they ignore expired rows), so how soon a row goes changes nothing visible.
 */
export class ExpirySweep {
  private writes = 0;

  constructor(
    private readonly deleteExpired: (now: number, limit: number) => number,
    private readonly options: SweepOptions = DEFAULT_SWEEP,
  ) {}

  /** Counts a write made at `now`; every `every` writes, deletes a batch of the rows expired by then. */
  afterWrite(now: number): void {
    this.writes += 1;
    if (this.writes % this.options.every === 0) this.deleteExpired(now, this.options.batch);
  }
}

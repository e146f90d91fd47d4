/**
 * How a check that did not pass is reported: a dependency `unreachable`, writes `failing`, a read model `catching_up`;
 * `shutdown: 'draining'` once the process stops.
 */
export type ReadinessFailure = 'unreachable' | 'failing' | 'catching_up' | 'draining';

/** One thing /readyz checks: resolves when it is fine, rejects (or times out) when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /** What a rejection (or a time-out) is reported as; default `unreachable`. */
  failure?: ReadinessFailure;
}

/**
 * The checks of this process: the event store answers (`eventStore`), takes writes (`eventStoreWrites`), the read
 * models caught up since start (`readModels`), and the bus where it is Kafka (`bus`). Bound by the composition root.
 */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export type ReadinessReport = { ready: boolean; checks: Record<string, 'ok' | ReadinessFailure> };

/** Runs every check in parallel, each bounded by `timeoutMs` (a hung dependency is unreachable, not a hung probe). */
export async function checkReadiness(checks: ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(
      async (c) =>
        [
          c.name,
          (await settlesWithin(
            Promise.resolve().then(() => c.check()),
            timeoutMs,
          ))
            ? 'ok'
            : (c.failure ?? 'unreachable'),
        ] as const,
    ),
  );
  return { ready: results.every(([, r]) => r === 'ok'), checks: Object.fromEntries(results) };
}

async function settlesWithin(work: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The readiness probe's binding: one ReadinessProbe per process, shared by /readyz wherever it is served. */
export const READINESS_PROBE = Symbol('READINESS_PROBE');

/** A dependency that does not answer within this is reported unreachable. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;
/** A report is reused this long: /readyz cannot make the stores answer more often than once a second. */
export const READINESS_CACHE_MS = 1000;

/**
 * /readyz's answer, computed at most once per `cacheMs`: callers within that time (and those arriving while a run is
 * in flight) share one run of the checks, so probes, however many, cannot be used to hammer the event store or Kafka.
 */
export class ReadinessProbe {
  private last: { at: number; report: ReadinessReport } | null = null;
  private running: Promise<ReadinessReport> | null = null;
  private draining = false;

  constructor(
    private readonly checks: ReadinessCheck[],
    private readonly options: { timeoutMs: number; cacheMs: number; now: () => number } = {
      timeoutMs: READINESS_CHECK_TIMEOUT_MS,
      cacheMs: READINESS_CACHE_MS,
      now: Date.now,
    },
  ) {}

  /**
   * From the stop on, /readyz answers 503 `{ shutdown: 'draining' }` without asking the dependencies (they are being
   * closed): whatever still routes by readiness takes the replica out while its in-flight requests finish.
   */
  drain(): void {
    this.draining = true;
  }

  /** The last report if younger than `cacheMs` (from its completion), the run in flight, or a new run. */
  report(): Promise<ReadinessReport> {
    if (this.draining) return Promise.resolve({ ready: false, checks: { shutdown: 'draining' } });
    if (this.running) return this.running;
    if (this.last && this.options.now() - this.last.at < this.options.cacheMs)
      return Promise.resolve(this.last.report);
    const running = checkReadiness(this.checks, this.options.timeoutMs).then((report) => {
      this.last = { at: this.options.now(), report };
      this.running = null;
      return report;
    });
    this.running = running;
    return running;
  }
}

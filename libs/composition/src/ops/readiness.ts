/** One dependency /readyz checks: resolves when reachable, rejects (or times out) when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** The checks of this process (event store always; the bus where it is Kafka). Bound by the composition root. */
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export type ReadinessReport = { ready: boolean; checks: Record<string, 'ok' | 'unreachable'> };

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
            : 'unreachable',
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

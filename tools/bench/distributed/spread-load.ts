import { performance } from 'node:perf_hooks';
import { driveLoad, type LoadOptions } from '../load/drive-load';
import { processCpuMs } from '../process-cpu';
import { processRssMb } from '../process-rss';
import { percentile } from '../quote-stats';

/** What one load run measured: the subset of measureLoad's ServerLoad both sides of the scenario report. */
export interface LoadFigures {
  completed: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU time (user + system, /proc) per request of the processes measured; null where /proc cannot be read. */
  cpuMsPerRequest: number | null;
  /** Resident memory of the processes measured, summed, right after the load. */
  rssMb: number | null;
}

/** Where a spread load goes: the gateways' URLs, and every process whose CPU and memory the load is charged with. */
export interface LoadTargets {
  urls: readonly string[];
  pids: readonly number[];
}

/**
 * driveLoad over several gateways at once, as a partner behind a balancer sends: the connections split evenly between
 * them (`concurrency` in all), every connection a closed loop on its own gateway, all started together. Requests/s is
 * everything completed over the longest run; p50/p99 over every request; CPU per request and RSS are summed over
 * every process of `pids` (all the apps, not the broker), read from /proc.
 */
export async function spreadLoad(
  targets: LoadTargets,
  load: Omit<LoadOptions, 'baseUrl'>,
): Promise<LoadFigures> {
  const cpu = () => sumOrNull(targets.pids.map(processCpuMs));
  const cpuBefore = cpu();
  const per = Math.max(1, Math.round(load.concurrency / targets.urls.length));
  const runs = await Promise.all(
    targets.urls.map((baseUrl) => driveLoad({ ...load, baseUrl, concurrency: per })),
  );
  const cpuAfter = cpu();
  const latencies = runs.flatMap((r) => r.latencies);
  const completed = latencies.length;
  const elapsedMs = Math.max(...runs.map((r) => r.elapsedMs));
  return {
    completed,
    perSecond: completed / (elapsedMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / Math.max(1, completed),
    rssMb: sumOrNull(targets.pids.map(processRssMb)),
  };
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0);
}

/** CPU time (ms per second of wall time) the processes spend with no request in flight: polls, heartbeats, ticks. */
export async function idleCpuMsPerSecond(
  pids: readonly number[],
  durationMs: number,
): Promise<number | null> {
  const cpu = () => sumOrNull(pids.map(processCpuMs));
  const before = cpu();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  const after = cpu();
  return before === null || after === null ? null : (after - before) / ((performance.now() - started) / 1000);
}

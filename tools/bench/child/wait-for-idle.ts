import { performance } from 'node:perf_hooks';
import { processCpuMs } from '../process-cpu';

/**
 * Waits until a process has used under `maxShare` of one core over a whole `windowMs` (its catch-up of a freshly
 * seeded store done, its boot settled), so that the next measurement is not paying for the previous step. Returns
 * how long it waited; gives up quietly at `timeoutMs` (the figures then carry that work, and the log says so).
 */
export async function waitForIdle(
  pid: number,
  options: { windowMs?: number; maxShare?: number; timeoutMs?: number } = {},
): Promise<{ waitedMs: number; idle: boolean }> {
  const windowMs = options.windowMs ?? 500;
  const maxShare = options.maxShare ?? 0.05;
  const started = performance.now();
  const deadline = started + (options.timeoutMs ?? 120_000);
  let before = processCpuMs(pid);
  if (before === null) return { waitedMs: 0, idle: true };
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = processCpuMs(pid);
    if (after === null) break;
    if (after - before <= windowMs * maxShare) return { waitedMs: performance.now() - started, idle: true };
    before = after;
  }
  return { waitedMs: performance.now() - started, idle: false };
}

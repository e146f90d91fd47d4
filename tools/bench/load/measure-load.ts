import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChildServer } from '../child/start-child-server';
import { processCpuMs } from '../process-cpu';
import { processRssMb } from '../process-rss';
import { percentile } from '../quote-stats';
import { driveLoad, type LoadOptions } from './drive-load';

export interface ServerLoad {
  completed: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** The server process's CPU time (user + system, /proc) per request; null where /proc cannot be read. */
  cpuMsPerRequest: number | null;
  /** This process's CPU time per request: the load generator's own cost, on the same cores. */
  clientCpuMsPerRequest: number;
  /** The server's resident memory right after the load. */
  rssMb: number | null;
}

/** driveLoad against a child server, with what the server itself spent and held. */
export async function measureLoad(
  server: ChildServer,
  load: Omit<LoadOptions, 'baseUrl'>,
): Promise<ServerLoad> {
  const cpuBefore = processCpuMs(server.pid);
  const clientBefore = process.cpuUsage();
  const startUs = Number(process.hrtime.bigint() / 1000n);
  let path = '';
  const next = () => {
    const request = load.next();
    path ||= request.path;
    return request;
  };
  const result = await driveLoad({ ...load, next, baseUrl: server.url });
  const cpuAfter = processCpuMs(server.pid);
  if (server.profileDir) {
    // hrtime and V8's profile timestamps share the monotonic clock (Linux), so a summary can keep only these samples.
    const endUs = Number(process.hrtime.bigint() / 1000n);
    const window = { pid: server.pid, path, startUs, endUs, completed: result.completed };
    appendFileSync(join(server.profileDir, 'windows.jsonl'), `${JSON.stringify(window)}\n`);
  }
  const client = process.cpuUsage(clientBefore);
  return {
    completed: result.completed,
    perSecond: result.perSecond,
    p50: percentile(result.latencies, 50),
    p95: percentile(result.latencies, 95),
    p99: percentile(result.latencies, 99),
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / Math.max(1, result.completed),
    clientCpuMsPerRequest: (client.user + client.system) / 1000 / Math.max(1, result.completed),
    rssMb: processRssMb(server.pid),
  };
}

import { randomUUID } from 'node:crypto';
import { API_PREFIX } from '@svc/contract';
import { attemptStreamId } from '@svc/domain';
import { type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { type BenchRig } from '../bench-rig';
import { type ChildServer } from '../child/start-child-server';
import { fetchSigned } from '../load/fetch-signed';
import { alternateRuns } from '../load/alternate-runs';
import { measureLoad, type ServerLoad } from '../load/measure-load';
import { signedGet } from '../load/signed-api-request';
import { benchPrepared } from '../webhook-seed';
import { loadFigures } from './load-figures';

const HOT_ATTEMPT = 'at_bench_hot';

/**
 * Scenario 1: signed GET /ping and signed GET of one attempt's status under closed-loop load, the service and the bare
 * baseline side by side in every repeat (each goes first in turn, so a drifting machine favours neither). The
 * attempt is appended to the service's store directly (AttemptPrepared), and its status body stored as the
 * baseline's one row, so both answer the same bytes.
 */
export async function signedRequestsScenario(rig: BenchRig, options: BenchOptions): Promise<ScenarioResult> {
  const { partner } = rig;
  const data = { ...benchPrepared(HOT_ATTEMPT, partner.partnerId, Date.now()) };
  await rig.serviceStore.append(
    attemptStreamId(HOT_ATTEMPT),
    [{ id: randomUUID(), type: 'AttemptPrepared', data }],
    { expectedRevision: 'no_stream' },
  );
  const statusPath = `${API_PREFIX}/attempts/${HOT_ATTEMPT}/status`;
  const snapshot = await fetchSigned(rig.service.url, partner, statusPath);
  rig.bareStore.seed([{ attemptId: HOT_ATTEMPT, partnerId: partner.partnerId, snapshot }]);

  const result: ScenarioResult = { figures: [], notes: [] };
  const endpoints = [
    { label: 'signed ping', path: `${API_PREFIX}/ping` },
    { label: 'signed status read', path: statusPath },
  ];
  for (const [i, endpoint] of endpoints.entries()) {
    const run = (server: ChildServer, durationMs: number) =>
      measureLoad(server, {
        concurrency: options.concurrency,
        durationMs,
        next: () => signedGet(partner, endpoint.path),
      });
    log(`${endpoint.label}: warming up…`);
    await run(rig.service, options.warmupMs);
    await run(rig.bare, options.warmupMs);
    const { service, bare } = await alternateRuns(
      rig,
      options.repeats,
      (server) => run(server, options.loadMs),
      (r, s, b) => log(`  repeat ${r}: service ${describe(s)}; bare ${describe(b)}`),
    );
    result.figures.push(...loadFigures(`1. ${endpoint.label}`, endpoint.label, service, bare));
    result.notes.push(
      `${endpoint.label}: CPU per request, service ${cpu(service, (l) => l.cpuMsPerRequest)} ms, bare ` +
        `${cpu(bare, (l) => l.cpuMsPerRequest)} ms (the server process, from /proc); the load generator's own ` +
        `${cpu([...service, ...bare], (l) => l.clientCpuMsPerRequest)} ms` +
        (i === 0
          ? `; ${options.concurrency} keep-alive connections, ${options.loadMs / 1000} s per run.`
          : '.'),
    );
  }
  return result;
}

function describe(load: ServerLoad): string {
  return `${Math.round(load.perSecond)}/s p50 ${load.p50.toFixed(1)} p99 ${load.p99.toFixed(1)} ms`;
}

/** The mean over the repeats of a per-request CPU figure, or n/a where /proc could not be read. */
function cpu(loads: readonly ServerLoad[], pick: (load: ServerLoad) => number | null): string {
  const values = loads.map(pick).filter((v): v is number => v !== null);
  if (values.length === 0) return 'n/a';
  return (values.reduce((a, b) => a + b, 0) / values.length).toFixed(3);
}

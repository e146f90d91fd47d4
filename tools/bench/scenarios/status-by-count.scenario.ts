import { API_PREFIX } from '@svc/contract';
import { type Figure, type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { type BenchRig } from '../bench-rig';
import { type ChildServer } from '../child/start-child-server';
import { waitForIdle } from '../child/wait-for-idle';
import { fetchSigned } from '../load/fetch-signed';
import { alternateRuns } from '../load/alternate-runs';
import { measureLoad } from '../load/measure-load';
import { signedGet } from '../load/signed-api-request';
import { seedAttempts, seededAttemptId } from '../seed-attempts';
import { sideBySide } from './load-figures';
import { rssFigure } from './rss-figure';

const P50_TARGET_MS = 2;
/** "Flat in the count": p50 at the largest count within this multiple of p50 at the smallest. */
const FLAT_TARGET = 1.5;

const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

/**
 * Scenario 2: sequential signed status reads of random stored attempts with 1 000, 10 000 and 100 000 attempts in the
 * service's SQLite store, beside the bare baseline reading one row by key from a table of as many rows. The counts are
 * seeded cumulatively into the service's file while the service is stopped (seedAttempts), then it starts again on
 * them, as after a deploy, and the reads begin once it is idle.
 */
export async function statusByCountScenario(rig: BenchRig, options: BenchOptions): Promise<ScenarioResult> {
  const { partner } = rig;
  const result: ScenarioResult = { figures: [], notes: [] };
  const p50s: { service: number[]; bare: number[] }[] = [];
  let seeded = 0;
  let template: string | null = null;
  for (const attempts of options.attemptCounts) {
    log(`${count(attempts)} attempts: seeding ${count(attempts - seeded)} with the service stopped…`);
    let seedMs = 0;
    const from = seeded;
    const restarted = await rig.restartService(async () => {
      seedMs = await seedAttempts(rig.serviceStore, { partnerId: partner.partnerId, from, to: attempts });
    });
    const first = seededAttemptId(0);
    template ??= await fetchSigned(rig.service.url, partner, `${API_PREFIX}/attempts/${first}/status`);
    const body = template;
    rig.bareStore.seed(
      Array.from({ length: attempts - seeded }, (_, k) => {
        const attemptId = seededAttemptId(seeded + k);
        return {
          attemptId,
          partnerId: partner.partnerId,
          snapshot: body.replaceAll(`"${first}"`, `"${attemptId}"`),
        };
      }),
    );
    const catchUp = await waitForIdle(restarted.pid);
    result.notes.push(
      `${count(attempts - seeded)} attempts appended in ${(seedMs / 1000).toFixed(1)} s ` +
        `(${((seedMs * 1000) / (attempts - seeded)).toFixed(0)} µs each, one append per attempt, the service ` +
        `stopped); the service restarted on ${count(attempts)} in ${(restarted.bootMs / 1000).toFixed(1)} s and was ` +
        `${catchUp.idle ? 'idle' : 'still busy'} ${(catchUp.waitedMs / 1000).toFixed(1)} s later.`,
    );
    seeded = attempts;

    const run = (server: ChildServer) =>
      measureLoad(server, {
        concurrency: 1,
        requests: options.statusReads,
        next: () =>
          signedGet(
            partner,
            `${API_PREFIX}/attempts/${seededAttemptId(Math.floor(Math.random() * attempts))}/status`,
          ),
      });
    // A restarted service has not run its read path yet: warm both up untimed.
    for (const server of [rig.service, rig.bare]) await run(server);
    const { service, bare } = await alternateRuns(rig, options.repeats, run, (r, s, b) =>
      log(
        `  repeat ${r}: service p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} ms; bare p50 ${b.p50.toFixed(2)} ms`,
      ),
    );
    p50s.push({ service: service.map((l) => l.p50), bare: bare.map((l) => l.p50) });
    const row = sideBySide(`2. status read, ${count(attempts)} attempts`, service, bare);
    result.figures.push(
      row('p50 latency', (l) => l.p50, { target: { on: 'measured', op: '≤', value: P50_TARGET_MS } }),
      row('p95 latency', (l) => l.p95),
      rssFigure(
        `service RSS after status reads at ${count(attempts)} attempts`,
        service.map((l) => l.rssMb),
        bare.map((l) => l.rssMb),
      ),
    );
  }
  if (p50s.length > 1) result.figures.push(flatness(options.attemptCounts, p50s));
  result.notes.push(
    `Status reads: ${options.statusReads} sequential signed reads of random attempts per repeat.`,
  );
  return result;
}

/** p50 at the largest count ÷ p50 at the smallest, per repeat; the baseline's own ratio beside it. */
function flatness(counts: readonly number[], p50s: { service: number[]; bare: number[] }[]): Figure {
  const [first, last] = [p50s[0], p50s[p50s.length - 1]];
  return {
    scenario: '2. status read vs attempts stored',
    name: `p50 at ${count(counts[counts.length - 1])} ÷ p50 at ${count(counts[0])}`,
    unit: '×',
    samples: last.service.map((v, i) => v / first.service[i]),
    baseline: { label: 'bare node:http', samples: last.bare.map((v, i) => v / first.bare[i]) },
    target: { on: 'measured', op: '≤', value: FLAT_TARGET },
  };
}

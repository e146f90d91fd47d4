import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { API_PREFIX } from '@svc/contract';
import { probeKafkaBroker } from '@svc/testing';
import { type Figure, type ScenarioResult, spreadOf } from '../bench-figure';
import { BenchFailure, log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { planBenchRequest } from '../bench-request';
import { type DistributedRig, startDistributedRig } from '../distributed/distributed-rig';
import { signedPost } from '../distributed/signed-post';
import {
  idleCpuMsPerSecond,
  type LoadFigures,
  type LoadTargets,
  spreadLoad,
} from '../distributed/spread-load';
import { type LoadRequest } from '../load/drive-load';
import { signedGet } from '../load/signed-api-request';
import { readQuoteFacts } from '../quote-stats';
import { seededAttemptId } from '../seed-attempts';

const QUOTE_PATH = `${API_PREFIX}/intents/quote`;
const statusPath = (attemptId: string) => `${API_PREFIX}/attempts/${attemptId}/status`;
const BASELINE = 'one process';
/** As `npm run distributed` and the topology suites run the apps: an idle consumer's fetch returns after 20 ms. */
const KAFKA_MAX_WAIT_MS = 20;

/** One endpoint under load: its rows' label, the next request, and whether the stubs need fresh answers first. */
interface Endpoint {
  label: string;
  next: () => LoadRequest;
  quotes: boolean;
}

/**
 * Scenario 6 (issue 16 item 3): signed quotes through the gateway → Kafka → quoting, and signed status reads (served
 * by the gateway itself since issue 22 item 6), with one and then two replicas of every app, beside the one-process
 * service measured with the same load in the same repeats. One broker for the whole scenario; the second replicas join
 * the running topology (a scale-out). Needs a Kafka broker (Java 17 and `npm run kafka:resolve`): without one, no
 * rows, a note.
 */
export async function distributedScenario(options: BenchOptions): Promise<ScenarioResult> {
  const kafka = probeKafkaBroker();
  if (!kafka.available) {
    log(`distributed: skipped, no Apache Kafka broker here (${kafka.reason})`);
    return {
      figures: [],
      notes: [`6. distributed: not run, no Apache Kafka broker here (${kafka.reason}).`],
    };
  }
  const sizes = options.distributed;
  const startedAt = performance.now();
  // Stopped or interrupted, even while starting, the run still stops every process it started.
  const starting = startDistributedRig({
    attempts: sizes.attempts,
    providerDelayMs: sizes.providerDelayMs,
    kafkaMaxWaitMs: KAFKA_MAX_WAIT_MS,
  });
  const interrupted = () =>
    void starting
      .then((r) => r.stop())
      .catch(() => undefined)
      .finally(() => process.exit(1));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const rig = await starting;
    try {
      const startMs = performance.now() - startedAt;
      return await measure(rig, options, startMs);
    } finally {
      await rig.stop();
    }
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  }
}

async function measure(rig: DistributedRig, options: BenchOptions, startMs: number): Promise<ScenarioResult> {
  const sizes = options.distributed;
  const runId = Date.now().toString(36);
  let quoteSeq = 0;
  let statusSeq = 0;
  const body = Buffer.from(JSON.stringify(quoteBody(rig)));
  const endpoints: Endpoint[] = [
    {
      label: 'quote',
      quotes: true,
      next: () => signedPost(rig.partner, QUOTE_PATH, body, `bench-dist-${runId}-${(quoteSeq += 1)}`),
    },
    {
      label: 'status read',
      quotes: false,
      next: () => signedGet(rig.partner, statusPath(seededAttemptId((statusSeq += 1) % sizes.attempts))),
    },
  ];
  const primed = new Map<string, number>();
  /** Fresh provider answers (a replayed Across quote expires after 30 s), recorded by one quote through `target`. */
  const prime = async (target: LoadTargets) => {
    rig.stub.forget();
    const request = endpoints[0].next();
    const res = await fetch(target.urls[0] + request.path, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new BenchFailure(`quote answered ${res.status}: ${text.slice(0, 300)}`);
    const { quoteStatus } = readQuoteFacts(JSON.parse(text));
    primed.set(quoteStatus, (primed.get(quoteStatus) ?? 0) + 1);
  };
  let missed = 0;
  const run = async (endpoint: Endpoint, target: LoadTargets, durationMs: number) => {
    if (endpoint.quotes) await prime(target);
    const forwarded = rig.stub.counts.forwarded;
    const load = await spreadLoad(target, {
      concurrency: options.concurrency,
      durationMs,
      next: endpoint.next,
    });
    missed += rig.stub.counts.forwarded - forwarded;
    return load;
  };

  /** `sizes.sequential` requests one after the other, to the first gateway: the latency of a request alone. */
  const alone = async (endpoint: Endpoint, target: LoadTargets) => {
    if (endpoint.quotes) await prime(target);
    const first = { ...target, urls: target.urls.slice(0, 1) };
    return spreadLoad(first, { concurrency: 1, requests: sizes.sequential, next: endpoint.next });
  };

  const result: ScenarioResult = { figures: [], notes: [] };
  const single: string[] = [];
  const loadBefore = loadavg()[0];
  const perSecond: Record<string, number[]> = {};
  const cpu: string[] = [];
  const idleCpu: string[] = [];
  for (const replicas of sizes.replicas) {
    const scaleStarted = performance.now();
    await rig.scaleTo(replicas);
    const scaleMs = performance.now() - scaleStarted;
    const scenario = `6. distributed, ${replicas} replica${replicas === 1 ? '' : 's'}`;
    if (replicas > 1)
      result.notes.push(`${scenario}: scaled out from the running topology in ${seconds(scaleMs)}.`);
    for (const endpoint of endpoints) {
      const topology = rig.topologyTarget();
      const standalone = rig.standaloneTarget();
      log(`${scenario}, ${endpoint.label}: warming up…`);
      await run(endpoint, topology, options.warmupMs);
      await run(endpoint, standalone, options.warmupMs);
      const measured: LoadFigures[] = [];
      const baseline: LoadFigures[] = [];
      for (let r = 0; r < options.repeats; r += 1) {
        // Each side goes first in turn, so a machine whose load drifts favours neither.
        if (r % 2 === 0) {
          measured.push(await run(endpoint, topology, sizes.loadMs));
          baseline.push(await run(endpoint, standalone, sizes.loadMs));
        } else {
          baseline.push(await run(endpoint, standalone, sizes.loadMs));
          measured.push(await run(endpoint, topology, sizes.loadMs));
        }
        log(`  repeat ${r + 1}: ${describe(measured[r])}; one process ${describe(baseline[r])}`);
      }
      const row = (name: string, pick: (l: LoadFigures) => number, more: Partial<Figure> = {}): Figure => ({
        scenario,
        name: `${endpoint.label} ${name}`,
        unit: 'ms',
        samples: measured.map(pick),
        baseline: { label: BASELINE, samples: baseline.map(pick) },
        ...more,
      });
      // Issue 22 item 6: status reads served by the gateway itself, no Kafka round trip.
      const statusTargets = endpoint.label === 'status read';
      const topologyAlone: LoadFigures[] = [];
      const standaloneAlone: LoadFigures[] = [];
      for (let r = 0; r < options.repeats; r += 1) {
        topologyAlone.push(await alone(endpoint, topology));
        standaloneAlone.push(await alone(endpoint, standalone));
      }
      result.figures.push(
        row('requests/s', (l) => l.perSecond, {
          unit: '/s',
          ratioAs: 'percent',
          ...(statusTargets ? { target: { on: 'ratio', op: '≥', value: 0.5 } } : {}),
        }),
        row('p50 latency', (l) => l.p50),
        row('p99 latency', (l) => l.p99),
        {
          scenario,
          name: `${endpoint.label} p50 latency, one at a time (${sizes.sequential} in a row)`,
          unit: 'ms',
          samples: topologyAlone.map((l) => l.p50),
          baseline: { label: BASELINE, samples: standaloneAlone.map((l) => l.p50) },
          ...(statusTargets ? { target: { on: 'measured', op: '≤', value: 2 } } : {}),
        },
      );
      perSecond[`${endpoint.label} ${replicas}`] = measured.map((l) => l.perSecond);
      single.push(
        `${endpoint.label} ×${replicas} p50 ${spreadOf(topologyAlone.map((l) => l.p50)).median.toFixed(1)} ms ` +
          `(one process ${spreadOf(standaloneAlone.map((l) => l.p50)).median.toFixed(1)} ms)`,
      );
      cpu.push(
        `${endpoint.label} ×${replicas} ${mean(measured.map((l) => l.cpuMsPerRequest))} ms ` +
          `(one process ${mean(baseline.map((l) => l.cpuMsPerRequest))} ms)`,
      );
    }
    // Warm, between loads: what the apps and the broker spend at rest, which every CPU-per-request figure includes.
    const idle = await idleCpuMsPerSecond(rig.topologyTarget().pids, options.warmupMs);
    const idleBaseline = await idleCpuMsPerSecond(rig.standaloneTarget().pids, options.warmupMs);
    const ms = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} ms`);
    idleCpu.push(`×${replicas} ${ms(idle)} (one process ${ms(idleBaseline)})`);
  }
  result.notes.unshift(
    `6. distributed: the five apps (gateway, quoting, execution, settlement-tracker, webhook-dispatcher) as ` +
      `separate processes over one Apache Kafka broker (KRaft, one JVM) and one SQLite file, KAFKA_MAX_WAIT_MS ${KAFKA_MAX_WAIT_MS}, ` +
      `LOG_LEVEL=warn; N replicas = N of every app, the gateway too. The load (${options.concurrency} keep-alive ` +
      `connections, ${sizes.loadMs / 1000} s per run, split evenly over the gateways, no balancer hop) is the ` +
      `signed scenario's; the baseline is the one-process service (in-process bus, its own SQLite file) on the ` +
      `same stubs, loaded alike in the same repeats. Broker, sandbox, stubs and the first five apps started in ` +
      `${seconds(startMs)}.`,
    `6. distributed: quotes of 1 routed source × 3 providers, a new Idempotency-Key each, the stubs replaying the ` +
      `sandbox's answers (recorded afresh before each run) after exactly ${sizes.providerDelayMs} ms ` +
      `(primed answers ${[...primed].map(([s, n]) => `${s} ×${n}`).join(', ')}; ${missed} calls of the loads not ` +
      `replayed); status reads of ${sizes.attempts} ` +
      `stored attempts in turn.`,
    `6. distributed: one request at a time (${sizes.sequential} in a row, after the loads): ${single.join('; ')}.`,
    `6. distributed: CPU per request, all the apps' processes and the broker summed: ${cpu.join('; ')}. ` +
      `At rest, after the loads, they spent ${idleCpu.join(', ')} of CPU per second (consumer fetches, ` +
      `heartbeats, the tracker's and dispatcher's ticks). Load average (1 min) ${loadBefore.toFixed(1)} before the loads, ${loadavg()[0].toFixed(1)} after: ` +
      `where it is well above the cores, other work shares them and the latencies move most.`,
  );
  const scaling = ['quote', 'status read'].flatMap((label) => {
    const one = perSecond[`${label} 1`];
    const two = perSecond[`${label} 2`];
    return one && two ? [`${label} ${ratio(two, one)}`] : [];
  });
  if (scaling.length > 0) {
    result.notes.push(
      `6. distributed: requests/s with 2 replicas ÷ with 1: ${scaling.join(', ')}. On this machine every replica, ` +
        `the broker, the baseline and the load generator share the same cores: a second replica adds no CPU, so no ` +
        `scaling is expected here; the ratio says what the second replicas cost or save, not what they would scale to.`,
    );
  }
  return result;
}

/** One routed source (USDC on another chain into USDC on Base): three provider quotes in one round. */
function quoteBody(rig: DistributedRig): object {
  const plan = planBenchRequest({
    tokens: rig.manifest.tokens,
    wallet: rig.manifest.wallets.users[0].address,
    count: 2,
  });
  return { ...plan.body, sources: plan.body.sources.slice(1) };
}

function describe(load: LoadFigures): string {
  return `${Math.round(load.perSecond)}/s p50 ${load.p50.toFixed(1)} p99 ${load.p99.toFixed(1)} ms`;
}

function mean(values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? 'n/a' : (known.reduce((a, b) => a + b, 0) / known.length).toFixed(2);
}

/** Median of the per-repeat ratios a ÷ b. */
function ratio(a: readonly number[], b: readonly number[]): string {
  const ratios = a.map((v, i) => v / b[i]).sort((x, y) => x - y);
  return `${ratios[Math.floor(ratios.length / 2)].toFixed(2)}×`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

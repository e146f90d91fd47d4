import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '@svc/testing';
import { BenchFailure } from './bench-failure';
import { type HistoryShape } from './history/seed-history';

export const SCENARIOS = [
  'signed',
  'status',
  'quotes',
  'webhooks',
  'boot',
  'distributed',
  'history',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Sizes of one `npm run bench`; `--smoke` shrinks every one so the whole run takes well under a minute. */
export interface BenchOptions {
  smoke: boolean;
  /** Every figure is the median of this many repeats. */
  repeats: number;
  only: ReadonlySet<ScenarioName>;
  /** Where the table is written. */
  out: string;
  /**
   * `--profile DIR`: the service child runs with `--cpu-prof` (and `--heap-prof`) writing into DIR, and every load run
   * appends its time window to DIR/windows.jsonl (see tools/bench/profile/summarize-cpuprofile.ts).
   */
  profileDir?: string;
  /** 1: closed-loop load per server and endpoint, after a warm-up. */
  loadMs: number;
  warmupMs: number;
  concurrency: number;
  /** 2: attempts stored, in increasing order (seeded cumulatively), and sequential reads per repeat and count. */
  attemptCounts: number[];
  statusReads: number;
  /** 3: sources per quote (× 3 providers each), quotes per repeat, the stub's answer delay, and the hang's budget. */
  sourceCounts: number[];
  quotes: number;
  /**
   * 3: sources of the source gas figure's quote (into USDC on arbitrum, the rest split over mainnet and base), and
   * quotes timed with and without source gas per repeat (each: its p95 is the third slowest of 40).
   */
  sourceGasSources: number;
  sourceGasQuotes: number;
  providerDelayMs: number;
  hangMaxWaitMs: number;
  /**
   * 4: attempts per partner (3 webhooks each) of the burst (throughput) and how long a run may wait for them; the
   * paced runs (latency, and beside a black-holed partner): attempts per partner and how many are started a second.
   */
  webhookAttempts: number;
  webhookWaitMs: number;
  webhookPaced: { attempts: number; perSecond: number };
  /**
   * 6: replica counts in turn (the topology scales out), attempts stored for the status reads, closed-loop load per
   * run (after a `warmupMs` warm-up, `concurrency` connections), the provider stubs' delay for the quotes, and
   * requests sent one at a time per endpoint and side (the latency of one request alone).
   */
  distributed: {
    replicas: number[];
    attempts: number;
    loadMs: number;
    providerDelayMs: number;
    sequential: number;
  };
  /**
   * 7: the stores seeded (attempts, and wallets they are spread over; the first is every figure's baseline) and the
   * sequential requests per endpoint, store and repeat.
   */
  history: {
    shapes: HistoryShape[];
    requests: number;
    /**
     * `--history-dir DIR`: seeded stores are kept in DIR/data-<attempts>-<wallets> and used again by the next run
     * (seeding 1 000 000 attempts takes about half an hour); default: seeded in a temporary directory, then deleted.
     */
    seededDir?: string;
  };
}

const FULL: Omit<BenchOptions, 'smoke' | 'only' | 'out'> = {
  repeats: 3,
  loadMs: 5000,
  warmupMs: 1000,
  concurrency: 32,
  attemptCounts: [1000, 10_000, 100_000],
  statusReads: 300,
  sourceCounts: [1, 10, 50],
  quotes: 20,
  sourceGasSources: 50,
  sourceGasQuotes: 40,
  providerDelayMs: 200,
  hangMaxWaitMs: 2000,
  webhookAttempts: 200,
  webhookWaitMs: 30_000,
  webhookPaced: { attempts: 100, perSecond: 20 },
  distributed: { replicas: [1, 2], attempts: 100, loadMs: 3000, providerDelayMs: 50, sequential: 50 },
  history: {
    shapes: [
      { attempts: 10_000, wallets: 1000 },
      { attempts: 100_000, wallets: 1000 },
      { attempts: 1_000_000, wallets: 1000 },
      { attempts: 100_000, wallets: 1 },
    ],
    requests: 200,
  },
};

const SMOKE: typeof FULL = {
  repeats: 1,
  loadMs: 1000,
  warmupMs: 200,
  concurrency: 8,
  attemptCounts: [100],
  statusReads: 30,
  sourceCounts: [1],
  quotes: 3,
  sourceGasSources: 3,
  sourceGasQuotes: 3,
  providerDelayMs: 200,
  hangMaxWaitMs: 1000,
  webhookAttempts: 10,
  webhookWaitMs: 5000,
  webhookPaced: { attempts: 10, perSecond: 20 },
  distributed: { replicas: [1], attempts: 10, loadMs: 500, providerDelayMs: 50, sequential: 5 },
  history: {
    shapes: [
      { attempts: 200, wallets: 20 },
      { attempts: 400, wallets: 1 },
    ],
    requests: 10,
  },
};

/**
 * `npm run bench [-- --smoke] [--repeats N] [--only signed,status,quotes,webhooks,boot,distributed,history] [--source-counts N,N] [--out FILE] [--profile DIR] [--history-dir DIR]`.
 * `--source-counts` sets the quote scenario's request sizes (default 1,10,50; e.g. `1` to reach its source gas figure
 * sooner). The full run
 * writes tools/bench/results/bench.md; a smoke or partial run writes to the temp dir unless `--out` says otherwise,
 * so it never replaces the committed figures.
 */
export function benchOptions(argv: readonly string[], overrides: Partial<BenchOptions> = {}): BenchOptions {
  const smoke = argv.includes('--smoke');
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = value('--only')?.split(',') ?? [...SCENARIOS];
  const unknown = only.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new BenchFailure(`--only: unknown scenario ${unknown.join(', ')}`);
  const partial = smoke || only.length < SCENARIOS.length;
  const repeats = value('--repeats');
  const sizes = smoke ? SMOKE : FULL;
  return {
    ...sizes,
    smoke,
    only: new Set(only as ScenarioName[]),
    out:
      value('--out') ??
      (partial ? join(tmpdir(), 'bench.md') : join(repoRoot, 'tools', 'bench', 'results', 'bench.md')),
    ...(repeats ? { repeats: Math.max(1, Number(repeats)) } : {}),
    ...(value('--source-counts') ? { sourceCounts: sourceCountsOf(value('--source-counts')!) } : {}),
    ...(value('--profile') ? { profileDir: resolve(value('--profile')!) } : {}),
    ...(value('--history-dir')
      ? { history: { ...sizes.history, seededDir: resolve(value('--history-dir')!) } }
      : {}),
    ...overrides,
  };
}

function sourceCountsOf(text: string): number[] {
  const counts = text.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1))
    throw new BenchFailure(`--source-counts: positive integers, comma-separated (got ${text})`);
  return counts;
}

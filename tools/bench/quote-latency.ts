import { type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';
import { extraTokensFor, type ManifestToken, planBenchRequest } from './bench-request';
import { childPids, processCpuMs, totalCpuMs } from './process-cpu';
import { countBy, formatCounts, type LatencySummary, summarize } from './quote-stats';
import { BenchFailure, log } from './bench-failure';
import { formatMarkdown } from './format-markdown';
import { SERVICE_FEE_RECIPIENT, writeBenchPartnersFile } from './bench-partner';
import { type QuoteSample, QuoteTimer } from './quote-timer';

/**
 * `npm run bench:quote`: latency of POST /intents/quote for a 50-source request with every provider answering
 * in a fixed 200 ms, then with mayan hanging under maxWaitMs 3000. Starts the provider sandbox and the
 * standalone service as child processes (as `npm start` does), talks to them over loopback HTTP only, prints a
 * Markdown table and writes it to tools/bench/results/quote-latency.md.
 */

const SOURCES = 50;
const PROVIDER_LATENCY_MS = 200;
const WARMUP = 2;
const RUNS = 30;
const HANG_RUNS = 5;
const HANG_MAX_WAIT_MS = 3000;
/** Context rows: the same request without injected latency, and a one-source request at 200 ms. */
const CONTEXT_RUNS = 10;
const WATCHDOG_MS = 150_000;
const PROVIDERS = ['relay', 'across', 'mayan'] as const;

interface Manifest {
  url: string;
  env: Record<string, string>;
  tokens: ManifestToken[];
  wallets: { users: { address: string }[] };
  providers: { relay: { baseUrl: string }; across: { baseUrl: string }; mayan: { priceUrl: string } };
}

type Sample = QuoteSample;

interface Row {
  scenario: string;
  floorMs: number;
  summary: LatencySummary;
  statuses: string;
  providerCalls: string;
}

async function run(children: ChildProcess[], work: string): Promise<void> {
  const extraTokens = extraTokensFor(SOURCES);
  log(`starting the provider sandbox (${extraTokens} extra tokens per chain)…`);
  const sandboxLines: string[] = [];
  const sandbox = spawnEntry(
    'apps/provider-sandbox/src/main.ts',
    {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_MANIFEST_DIR: join(work, 'sandbox'),
      SANDBOX_EXTRA_TOKENS: String(extraTokens),
      SANDBOX_FAULTS: '',
      SANDBOX_CHAIN_PORTS: '',
    },
    collect('sandbox', sandboxLines),
  );
  children.push(sandbox);
  const [, sandboxUrl] = await waitForLine(
    sandbox,
    sandboxLines,
    /^provider sandbox on (http:\/\/\S+)/,
    60_000,
  );
  const manifest = (await admin(sandboxUrl, 'GET', '/manifest')) as Manifest;

  const partnersFile = join(work, 'partners.json');
  const partner = writeBenchPartnersFile(partnersFile, 100_000);
  log(`starting the service…`);
  const serviceLines: string[] = [];
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const service = spawnEntry(
    'apps/standalone/src/main.ts',
    {
      ...process.env,
      ...manifest.env,
      PORT: '0',
      OPS_PORT: '0', // its ops listener on any free port: nothing here reads it
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EVENT_STORE: 'sqlite',
      LOG_LEVEL: 'warn',
      SERVICE_FEE_RECIPIENT,
      QUOTE_MAX_WAIT_MS: '8000',
      PARTNERS_FILE: partnersFile,
    },
    collect('service', serviceLines),
  );
  children.push(service);
  const [, serviceUrl] = await waitForLine(service, serviceLines, /listening on (http:\/\/\S+)/, 60_000);

  const timer = new QuoteTimer(serviceUrl, partner);
  await timer.ping();

  const plan = planBenchRequest({
    tokens: manifest.tokens,
    wallet: manifest.wallets.users[0].address,
    count: SOURCES,
  });
  const expectedCalls = plan.routedSources * PROVIDERS.length;
  const chains = formatCounts(countBy(plan.body.sources, (s) => `chain ${s.chainId}`));
  log(
    `request: ${plan.body.sources.length} sources (${chains}) → USDC on 8453; ${expectedCalls} provider calls`,
  );

  const series = async (label: string, body: object, runs: number): Promise<Sample[]> => {
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i += 1) samples.push(await timer.time(body));
    log(`  ${label}: ${samples.map((s) => Math.round(s.ms)).join(' ')} ms`);
    return samples;
  };
  const rows: Row[] = [];
  const row = (scenario: string, floorMs: number, samples: Sample[]): Row => ({
    scenario,
    floorMs,
    summary: summarize(samples.map((s) => s.ms)),
    statuses: formatCounts(countBy(samples, (s) => s.facts.quoteStatus)),
    providerCalls: [...new Set(samples.map((s) => s.facts.providerCalls))].join(' / '),
  });

  // 1. Every provider answers quotes after a fixed 200 ms.
  await setFaults(
    sandboxUrl,
    PROVIDERS.map((provider) => ({ provider, latencyMs: PROVIDER_LATENCY_MS })),
  );
  await checkQuoteLatency(manifest, PROVIDER_LATENCY_MS);
  await series('warm-up', plan.body, WARMUP);
  const cpu = cpuMeter({ service: service.pid, sandbox: sandbox.pid });
  const steady = await series(`${RUNS} quotes`, plan.body, RUNS);
  const cpuPerQuote = cpu.perRun(RUNS);
  for (const s of steady) {
    if (s.ms < PROVIDER_LATENCY_MS)
      throw new BenchFailure(`a quote took ${s.ms} ms, under the injected latency`);
  }
  rows.push(row(`${SOURCES} sources, 3 providers at ${PROVIDER_LATENCY_MS} ms`, PROVIDER_LATENCY_MS, steady));

  // Context: the same request without injected latency, and one source at 200 ms (no fan-out).
  await setFaults(sandboxUrl, []);
  rows.push(
    row(`${SOURCES} sources, no injected latency`, 0, await series('no latency', plan.body, CONTEXT_RUNS)),
  );
  await setFaults(
    sandboxUrl,
    PROVIDERS.map((provider) => ({ provider, latencyMs: PROVIDER_LATENCY_MS })),
  );
  const one = {
    ...plan.body,
    sources: plan.body.sources.filter((s) => s.chainId === 1 && s.symbol === 'USDC'),
  };
  rows.push(
    row(
      `1 source, 3 providers at ${PROVIDER_LATENCY_MS} ms`,
      PROVIDER_LATENCY_MS,
      await series('1 source', one, CONTEXT_RUNS),
    ),
  );

  // 2. mayan hangs: the answer comes at maxWaitMs, mayan's slices as provider_timeout.
  await setFaults(sandboxUrl, [
    { provider: 'mayan', timeout: true },
    { provider: 'relay', latencyMs: PROVIDER_LATENCY_MS },
    { provider: 'across', latencyMs: PROVIDER_LATENCY_MS },
  ]);
  const hung = await series('mayan hanging', { ...plan.body, maxWaitMs: HANG_MAX_WAIT_MS }, HANG_RUNS);
  for (const s of hung) {
    const mayan = s.facts.byProvider['mayan'];
    const timeouts = mayan?.failed['provider_timeout'] ?? 0;
    if (timeouts !== plan.routedSources) {
      throw new BenchFailure(
        `mayan reported ${timeouts} provider_timeout slices, not ${plan.routedSources}: ${JSON.stringify(mayan)}`,
      );
    }
    if (s.ms < HANG_MAX_WAIT_MS) throw new BenchFailure(`answered in ${s.ms} ms, before maxWaitMs`);
  }
  rows.push(row(`mayan hangs, maxWaitMs ${HANG_MAX_WAIT_MS}`, HANG_MAX_WAIT_MS, hung));
  await setFaults(sandboxUrl, []);

  const mayanTimeouts = hung.map((s) => s.facts.byProvider['mayan']?.failed['provider_timeout'] ?? 0);
  const out = join(repoRoot, 'tools', 'bench', 'results', 'quote-latency.md');
  const markdown = await formatMarkdown(
    report({
      rows,
      plan: { sources: plan.body.sources.length, chains, routed: plan.routedSources, expectedCalls },
      mayanTimeouts: `${Math.min(...mayanTimeouts)}/${plan.routedSources}`,
      cpuPerQuote,
      otherFailures: describeOtherFailures([...steady, ...hung]),
    }),
    out,
  );
  log('');
  log(markdown);
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, markdown);
  log(`written to ${out}`);
}

/** Sets exactly these faults (DELETE, then POST) and checks the sandbox lists them. */
async function setFaults(sandboxUrl: string, faults: object[]): Promise<void> {
  await admin(sandboxUrl, 'DELETE', '/faults');
  if (faults.length === 0) return;
  const listed = (await admin(sandboxUrl, 'POST', '/faults', faults)) as { faults: object[] };
  if (listed.faults.length !== faults.length) {
    throw new BenchFailure(`the sandbox lists faults ${JSON.stringify(listed.faults)}`);
  }
}

/**
 * Asks each provider's quote endpoint directly (an empty request, which it refuses) and checks the answer took
 * at least the injected latency: the fault covers the quote endpoints, not only the status ones.
 */
async function checkQuoteLatency(manifest: Manifest, latencyMs: number): Promise<void> {
  const probes: Record<(typeof PROVIDERS)[number], () => Promise<Response>> = {
    relay: () =>
      fetch(`${manifest.providers.relay.baseUrl}/quote/v2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    across: () => fetch(`${manifest.providers.across.baseUrl}/swap/approval`),
    mayan: () => fetch(`${manifest.providers.mayan.priceUrl}/quote`),
  };
  for (const provider of PROVIDERS) {
    const started = performance.now();
    const res = await probes[provider]();
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (ms < latencyMs) {
      throw new BenchFailure(
        `${provider}'s quote endpoint answered in ${Math.round(ms)} ms: latency not applied`,
      );
    }
  }
}

async function admin(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new BenchFailure(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * CPU time each process spends between now and `perRun` (Linux /proc): the service, the sandbox, its anvil nodes
 * and this client, divided by the runs. Null where /proc cannot be read.
 */
function cpuMeter(pids: { service?: number; sandbox?: number }) {
  const anvils = childPids(pids.sandbox);
  const read = () => ({
    service: processCpuMs(pids.service),
    sandbox: processCpuMs(pids.sandbox),
    anvils: anvils.length > 0 ? totalCpuMs(anvils) : null,
    client: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  const before = read();
  return {
    perRun(runs: number): string | null {
      const after = read();
      const parts: string[] = [];
      for (const key of ['service', 'sandbox', 'anvils', 'client'] as const) {
        const [a, b] = [after[key], before[key]];
        if (a === null || b === null) return null;
        parts.push(`${key === 'anvils' ? `${anvils.length} anvils` : key} ${Math.round((a - b) / runs)} ms`);
      }
      return parts.join(', ');
    },
  };
}

function describeOtherFailures(samples: Sample[]): string {
  const counts: Record<string, number> = {};
  for (const s of samples) {
    for (const [provider, entry] of Object.entries(s.facts.byProvider)) {
      for (const [code, n] of Object.entries(entry.failed)) {
        if (provider === 'mayan' && code === 'provider_timeout') continue;
        counts[`${provider} ${code}`] = (counts[`${provider} ${code}`] ?? 0) + n;
      }
    }
  }
  return Object.keys(counts).length === 0 ? 'none' : formatCounts(counts);
}

function report(params: {
  rows: Row[];
  plan: { sources: number; chains: string; routed: number; expectedCalls: number };
  mayanTimeouts: string;
  cpuPerQuote: string | null;
  otherFailures: string;
}): string {
  const ms = (n: number) => `${Math.round(n)}`;
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${Math.round(n)}`;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    `### Quote latency (\`npm run bench:quote\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}; ${availableParallelism()} CPUs (${cpu}), Node ${process.version}, ` +
      `${platform()} ${arch()}. Standalone service (SQLite event store, LOG_LEVEL=warn) and provider sandbox on ` +
      `loopback, each in its own process; times are wall time at the partner client, sequential requests.`,
    '',
    `Request: ${params.plan.sources} distinct sources (${params.plan.chains}) → USDC on base; the base USDC ` +
      `source is a no-op, the other ${params.plan.routed} are one quote per provider each ` +
      `(${params.plan.expectedCalls} provider calls per request).`,
    '',
    '| scenario | n | p50 ms | p95 ms | max ms | p50 − floor | p95 − floor | quoteStatus | provider calls / request |',
    '| --- | --: | --: | --: | --: | --: | --: | --- | --: |',
    ...params.rows.map(
      (r) =>
        `| ${r.scenario} (floor ${r.floorMs} ms) | ${r.summary.n} | ${ms(r.summary.p50)} | ${ms(r.summary.p95)} | ` +
        `${ms(r.summary.max)} | ${signed(r.summary.p50 - r.floorMs)} | ${signed(r.summary.p95 - r.floorMs)} | ` +
        `${r.statuses} | ${r.providerCalls} |`,
    ),
    '',
    `With mayan hanging, mayan's slices reported \`provider_timeout\`: ${params.mayanTimeouts} in every answer. ` +
      `Other slice failures: ${params.otherFailures}.`,
    '',
    ...(params.cpuPerQuote === null
      ? []
      : [
          `CPU time per quote in the ${PROVIDER_LATENCY_MS} ms run (user + system, from /proc): ` +
            `${params.cpuPerQuote}.`,
          '',
        ]),
  ];
  return lines.join('\n');
}

function collect(name: string, lines: string[]) {
  return (line: string) => {
    lines.push(line);
    if (process.env['VERBOSE'] === '1' || /error|fatal/i.test(line)) log(`[${name}] ${line}`);
  };
}

async function main(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'bench-quote-'));
  const children: ChildProcess[] = [];
  let watchdog: NodeJS.Timeout | undefined;
  const stopAll = async () => {
    await Promise.all(children.map((c) => stopChild(c)));
    rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopAll().then(() => process.exit(1)));
  }
  try {
    await Promise.race([
      run(children, work),
      new Promise<never>((_, reject) => {
        watchdog = setTimeout(
          () => reject(new BenchFailure(`did not finish within ${WATCHDOG_MS / 1000} s`)),
          WATCHDOG_MS,
        );
      }),
    ]);
    return 0;
  } catch (error) {
    process.stderr.write(`bench:quote failed: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  } finally {
    clearTimeout(watchdog);
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:quote failed: ${String(error)}\n`);
    process.exit(1);
  },
);

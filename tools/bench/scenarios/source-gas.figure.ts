import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Figure } from '../bench-figure';
import { BenchFailure, log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { type BenchRig } from '../bench-rig';
import { planBenchRequest } from '../bench-request';
import { type ChildServer } from '../child/start-child-server';
import { processCpuMs } from '../process-cpu';
import { countBy, formatCounts, percentile } from '../quote-stats';
import { QuoteTimer } from '../quote-timer';
import { type RpcCounts, startRpcCounter } from '../stub/rpc-counter';

/** Issue 28 item 4: the source gas estimates add at most this much to the quote's p95. */
export const SOURCE_GAS_ADDED_TARGET_MS = 20;
/** USDC on arbitrum: the sources then sit on mainnet and on base, whose transactions pay an L1 data fee. */
const TARGET_CHAIN = 42161;
const L1_DATA_FEE_CHAIN = 8453;
const WITHOUT = 'QUOTE_SOURCE_GAS=false';
const PAIRS_PER_RECORDING = 10;
/**
 * In the "winner answers last" figure, how much later than the stubs' delay the winning provider's every answer comes
 * (beyond one more delay: Mayan's quote and swap are two rounds), so that it answers after every other provider.
 */
const WINNER_LAST_EXTRA_MS = 50;
/** Quotes whose source gas requests are timed at the node (untimed quotes, through the counting pass-through). */
const RPC_TIMED_QUOTES = 20;

/** One repeat's times per side, provider calls not replayed, and each service's CPU over its quotes (null: no /proc). */
interface Repeat {
  with: number[];
  without: number[];
  missed: number;
  cpuMs: [number, number] | null;
}

interface GasTransaction {
  kind?: unknown;
  gasMethod?: unknown;
  l1DataFeeWei?: string;
}

interface GasSource {
  inputTokenIndex?: unknown;
  chainId?: unknown;
  status?: unknown;
  reason?: string | null;
  transactions?: unknown;
}

/** What the answers with source gas held, over the whole figure (every one is checked). */
interface SeenGas {
  answers: number;
  /** The first answer's size, as JSON. */
  bytes: number;
  /** The selected plans' provider sets, as `a,b`. */
  providerSets: Set<string>;
  byChain: Map<number, { sources: number; kinds: Record<string, number> }>;
}

/**
 * The source gas figure of the quote scenario (issue 28 item 4): the same quote of `options.sourceGasSources`
 * sources into USDC on arbitrum (so they sit on mainnet and base, ERC-20s needing approvals, base charging an L1 data
 * fee), timed on two services started for it, alike but for `QUOTE_SOURCE_GAS` (on, the default; off: the
 * baseline), both reading the sandbox's chains through its fee RPC and asking the provider stubs. Quotes alternate
 * between the two, so a busy machine slows both alike; the providers' answers are recorded afresh every 10 pairs. Every
 * answer with source gas must hold it for every routed source, every transaction simulated (`gasMethod:
 * "simulated"`), every one on base with an L1 data fee; every answer without must hold none: anything else fails the
 * run. Then one service with source gas is started against counting RPC pass-throughs, untimed, to count a quote's
 * reads.
 */
export async function sourceGasFigures(
  rig: BenchRig,
  options: BenchOptions,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const manifest = rig.manifest;
  if (!manifest) throw new BenchFailure('the source gas figure needs the sandbox');
  const plan = planBenchRequest({
    tokens: manifest.tokens,
    wallet: manifest.wallets.users[0].address,
    count: options.sourceGasSources,
    targetChainId: TARGET_CHAIN,
  });
  const body = plan.body;
  const routed = body.sources.flatMap((s, i) => (s.chainId === TARGET_CHAIN ? [] : [i]));
  const label = `${body.sources.length} sources`;
  const seen: SeenGas = { answers: 0, bytes: 0, byChain: new Map(), providerSets: new Set() };
  const checkWith = (answer: unknown) => checkSourceGas(answer, body.sources, routed, seen);

  log(`quote, ${label}, source gas on and off: starting two services…`);
  const withGas = await rig.startChainService({ name: 'service with source gas', env: {} });
  let without: ChildServer | null = null;
  try {
    without = await rig.startChainService({
      name: 'service without source gas',
      env: { QUOTE_SOURCE_GAS: 'false' },
    });
    const on = new QuoteTimer(withGas.url, rig.partner);
    const off = new QuoteTimer(without.url, rig.partner);
    log(`quote, ${label}, source gas on and off: warming up…`);
    await on.time(body, checkWith);
    await off.time(body, checkWithout);

    // Pairs of quotes timed on one recording of the providers' answers: about 12 s, well inside the 30 s the
    // sandbox's Across answers live (see timeReplayedQuotes).
    const block = async (pairs: number, first: number): Promise<Repeat> => {
      rig.stub.forget();
      await off.time(body, checkWithout);
      const forwarded = rig.stub.counts.forwarded;
      const cpuBefore = [processCpuMs(withGas.pid), processCpuMs(without!.pid)];
      const times: Repeat = { with: [], without: [], missed: 0, cpuMs: null };
      for (let q = first; q < first + pairs; q += 1) {
        // Alternating, and which goes first alternates too.
        for (const side of q % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
          const sample =
            side === 'with' ? await on.time(body, checkWith) : await off.time(body, checkWithout);
          times[side].push(sample.ms);
        }
      }
      const cpuAfter = [processCpuMs(withGas.pid), processCpuMs(without!.pid)];
      const cpu = [...cpuBefore, ...cpuAfter];
      return {
        ...times,
        missed: rig.stub.counts.forwarded - forwarded,
        cpuMs: cpu.some((v) => v === null) ? null : [cpu[2]! - cpu[0]!, cpu[3]! - cpu[1]!],
      };
    };
    const measure = async (): Promise<Repeat[]> => {
      const repeats: Repeat[] = [];
      for (let r = 0; r < options.repeats; r += 1) {
        const repeat: Repeat = { with: [], without: [], missed: 0, cpuMs: [0, 0] };
        for (let q = 0; q < options.sourceGasQuotes; q += PAIRS_PER_RECORDING) {
          const b = await block(Math.min(PAIRS_PER_RECORDING, options.sourceGasQuotes - q), q);
          repeat.with.push(...b.with);
          repeat.without.push(...b.without);
          repeat.missed += b.missed;
          repeat.cpuMs =
            repeat.cpuMs && b.cpuMs ? [repeat.cpuMs[0] + b.cpuMs[0], repeat.cpuMs[1] + b.cpuMs[1]] : null;
        }
        repeats.push(repeat);
        const ms = (values: number[]) => values.map((v) => Math.round(v)).join(' ');
        log(`  repeat ${r + 1}: with ${ms(repeat.with)} ms; without ${ms(repeat.without)} ms`);
      }
      return repeats;
    };
    const repeats = await measure();
    // The same quotes with the provider that wins them answering last (after Mayan's quote and swap): the chains can
    // then be read only once it has answered, so this is what the estimates add when the winner is the slowest.
    const winners = seen.providerSets.size === 1 ? [...seen.providerSets][0].split(',') : [];
    const lastDelayMs = options.providerDelayMs + WINNER_LAST_EXTRA_MS;
    let winnerLast: Repeat[] | null = null;
    if (winners.length === 1) {
      log(`quote, ${label}, source gas on and off, ${winners[0]} answering last (+${lastDelayMs} ms)…`);
      rig.stub.setExtraDelay({ [winners[0]]: lastDelayMs });
      try {
        winnerLast = await measure();
      } finally {
        rig.stub.setExtraDelay({});
      }
    }
    await withGas.stop();
    const counted = await countRpcCalls(rig, body, checkWith);

    const scenario = `3. quote, ${label} × 3 providers, source gas`;
    const row = (p: number, measured: Repeat[], when = ''): Figure => ({
      scenario,
      name: `p${p} with source gas (on ${sourcesByChain(body.sources)})${when}`,
      unit: 'ms',
      samples: measured.map((r) => percentile(r.with, p)),
      baseline: { label: WITHOUT, samples: measured.map((r) => percentile(r.without, p)) },
      ratioAs: 'difference',
    });
    const figures: Figure[] = [
      row(50, repeats),
      { ...row(95, repeats), target: { on: 'ratio', op: '≤', value: SOURCE_GAS_ADDED_TARGET_MS } },
      ...(winnerLast
        ? [
            row(50, winnerLast, `, ${winners[0]} (the winner) answering last`),
            row(95, winnerLast, `, ${winners[0]} (the winner) answering last`),
          ]
        : []),
    ];
    const notes = [
      describe(label, body.sources, repeats, seen, options),
      winnerLast
        ? `With ${winners[0]}, whose routes every quote selects, answering ${lastDelayMs} ms after the others (so ` +
          `after Mayan's quote and swap): p95 added per repeat ${addedP95(winnerLast)} ms. The chains are read for ` +
          `the plan the answers so far route while the last provider is awaited (docs/source-economics.md), which ` +
          `cannot help when the last one is the winner.`
        : `The quotes selected more than one provider set (${[...seen.providerSets].join('; ')}): no "winner ` +
          `answers last" figure.`,
      counted,
    ];
    return { figures, notes };
  } finally {
    await withGas.stop();
    await without?.stop();
  }
}

/** An answer with source gas: every routed source estimated, every transaction simulated, base's with an L1 fee. */
function checkSourceGas(
  answer: unknown,
  sources: readonly { chainId: number; symbol: string }[],
  routed: readonly number[],
  seen: SeenGas,
): void {
  const plan = (answer as { selectedPlan?: { providerSet?: unknown } }).selectedPlan;
  if (Array.isArray(plan?.providerSet)) seen.providerSets.add(plan.providerSet.map(String).join(','));
  const report = (answer as { sourceGas?: { sources?: unknown } }).sourceGas;
  if (!report || !Array.isArray(report.sources)) {
    throw new BenchFailure(
      `a quote with source gas on has no sourceGas: ${JSON.stringify(answer).slice(0, 300)}`,
    );
  }
  const bySource = new Map((report.sources as GasSource[]).map((s) => [Number(s.inputTokenIndex), s]));
  for (const index of routed) {
    const source = bySource.get(index);
    const what = `source ${index} (${sources[index].symbol} on ${sources[index].chainId})`;
    if (!source) throw new BenchFailure(`sourceGas lists no ${what}`);
    const transactions = (Array.isArray(source.transactions) ? source.transactions : []) as GasTransaction[];
    if (source.status !== 'estimated' || transactions.length === 0) {
      throw new BenchFailure(
        `sourceGas: ${what} is ${String(source.status)} with ${transactions.length} transactions` +
          `${source.reason ? ` (${source.reason})` : ''}`,
      );
    }
    for (const t of transactions) {
      if (t.gasMethod !== 'simulated') {
        throw new BenchFailure(
          `sourceGas: ${what}'s ${String(t.kind)} transaction is ${String(t.gasMethod)}, not simulated: the ` +
            `simulation did not run as built`,
        );
      }
      if (sources[index].chainId === L1_DATA_FEE_CHAIN && !(BigInt(t.l1DataFeeWei ?? 0) > 0n)) {
        throw new BenchFailure(`sourceGas: ${what}'s ${String(t.kind)} transaction has no L1 data fee`);
      }
    }
    if (seen.answers === 0) {
      seen.bytes = JSON.stringify(answer).length;
      const chain = seen.byChain.get(sources[index].chainId) ?? { sources: 0, kinds: {} };
      chain.sources += 1;
      for (const t of transactions) chain.kinds[String(t.kind)] = (chain.kinds[String(t.kind)] ?? 0) + 1;
      seen.byChain.set(sources[index].chainId, chain);
    }
  }
  seen.answers += 1;
}

function checkWithout(answer: unknown): void {
  if ((answer as { sourceGas?: unknown }).sourceGas !== undefined) {
    throw new BenchFailure(`a quote with ${WITHOUT} carries sourceGas`);
  }
}

const sourcesByChain = (sources: readonly { chainId: number }[]) =>
  formatCounts(countBy(sources, (s) => `chain ${s.chainId}`));

function describe(
  label: string,
  sources: readonly { chainId: number }[],
  repeats: readonly Repeat[],
  seen: SeenGas,
  options: BenchOptions,
): string {
  const added = addedP95(repeats);
  const chains = [...seen.byChain.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([chainId, c]) => `chain ${chainId}: ${c.sources} routed, ${formatCounts(c.kinds)}`)
    .join('; ');
  const perQuote = (side: 0 | 1) =>
    Math.round(mean(repeats.map((r) => r.cpuMs![side] / options.sourceGasQuotes)));
  const cpu = repeats.every((r) => r.cpuMs !== null)
    ? `; service CPU per quote with ${perQuote(0)} ms, without ${perQuote(1)} ms`
    : '';
  return (
    `Quote, ${label} into USDC on ${TARGET_CHAIN} (${sourcesByChain(sources)}, the target USDC a no-op), source ` +
    `gas: two services alike but for ${WITHOUT} on the baseline, reading the sandbox's chains through its fee RPC; ` +
    `${options.sourceGasQuotes} quotes each per repeat, alternating, the providers' answers recorded afresh every ` +
    `${PAIRS_PER_RECORDING} pairs; p95 added per repeat ${added} ms; ` +
    `${repeats.reduce((n, r) => n + r.missed, 0)} provider calls not replayed; ${seen.answers} answers with ` +
    `source gas checked, every transaction simulated (${chains}); an answer is ` +
    `${Math.round(seen.bytes / 1024)} KB as JSON with source gas${cpu}.`
  );
}

const addedP95 = (repeats: readonly Repeat[]) =>
  repeats.map((r) => `${(percentile(r.with, 95) - percentile(r.without, 95)).toFixed(1)}`).join(', ');

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * A service with source gas whose CHAINS_FILE points at counting pass-throughs to the sandbox's chain RPCs, untimed:
 * what one quote's source gas asks each chain, the first quote after boot (fee data read) and one right after it.
 */
async function countRpcCalls(rig: BenchRig, body: object, check: (answer: unknown) => void): Promise<string> {
  const manifest = rig.manifest!;
  const dir = mkdtempSync(join(tmpdir(), 'bench-rpc-count-'));
  const counters = await Promise.all(
    manifest.chains.map(async (c) => ({ chainId: c.chainId, counter: await startRpcCounter(c.rpcUrl) })),
  );
  let service: ChildServer | null = null;
  try {
    const chainsFile = join(dir, 'chains.json');
    const sandboxChains = JSON.parse(readFileSync(manifest.env['CHAINS_FILE'], 'utf8')) as {
      chains: { chainId: number; rpcUrl: string }[];
    };
    const url = (chainId: number) => counters.find((c) => c.chainId === chainId)!.counter.url;
    writeFileSync(
      chainsFile,
      JSON.stringify({ chains: sandboxChains.chains.map((c) => ({ ...c, rpcUrl: url(c.chainId) })) }),
    );
    log('  counting one quote’s RPC calls…');
    service = await rig.startChainService({
      name: 'service with source gas, RPC counted',
      env: {},
      chainsFile,
    });
    const timer = new QuoteTimer(service.url, rig.partner);
    const quotes: string[] = [];
    for (const which of ['the first quote after boot', 'the next at once']) {
      counters.forEach((c) => c.counter.take());
      await timer.time(body, check);
      const counts = counters.map((c) => ({ chainId: c.chainId, ...c.counter.take() }));
      quotes.push(`${which}: ${formatRpcCounts(counts)}`);
    }
    // How long the node takes to answer a quote's requests (the simulation), over more quotes.
    const upstream = new Map<number, number[]>();
    for (let q = 0; q < RPC_TIMED_QUOTES; q += 1) {
      await timer.time(body, check);
      for (const c of counters) {
        const ms = c.counter.take().upstreamMs;
        if (ms.length > 0) upstream.set(c.chainId, [...(upstream.get(c.chainId) ?? []), ...ms]);
      }
    }
    const nodeTimes = [...upstream.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(
        ([chainId, ms]) =>
          `chain ${chainId} p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`,
      )
      .join('; ');
    return (
      `Source gas RPC calls of one quote (counted through a pass-through, untimed): ${quotes.join('; ')}. ` +
      `The node's answer to a source gas request, over ${RPC_TIMED_QUOTES} quotes one at a time: ${nodeTimes}.`
    );
  } finally {
    await service?.stop();
    await Promise.all(counters.map((c) => c.counter.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatRpcCounts(counts: readonly (RpcCounts & { chainId: number })[]): string {
  const asked = counts.filter((c) => c.requests > 0);
  if (asked.length === 0) return 'none';
  return asked
    .map(
      (c) =>
        `chain ${c.chainId} ${c.requests} HTTP request${c.requests === 1 ? '' : 's'} ` +
        `(${formatCounts(c.calls)})`,
    )
    .join(', ');
}

import {
  QUOTE_LIMITS,
  type QuoteRequest,
  type SourceGasChainTotals,
  type SourceGasEstimate,
  type SourceGasReport,
  type SourceGasTotals,
} from '@svc/contract';
import { roundUsd, sumUsd } from '../quoting/usd';
import { type SourceGasFigures } from './source-gas-figures';

const NATIVE = '0x0000000000000000000000000000000000000000';
const WEI_PER_NATIVE = 1e18;

/** A selected slice's input as its provider valued it: the fallback for a source's value and a native price. */
export interface ProviderSourceValue {
  sourceIndex: number;
  provider: string;
  rawAmount: bigint;
  inputUsd: number | null;
}

export interface SourceGasReportInput {
  figures: readonly SourceGasFigures[];
  request: QuoteRequest;
  providerValues: readonly ProviderSourceValue[];
  /** The native token's symbol of every chain the service knows (a target's chain may not be a source's). */
  nativeSymbols: ReadonlyMap<number, string>;
  /** Sources already left out (their entries from the quote's first pass), listed with `excluded: true`. */
  excluded?: readonly SourceGasEstimate[];
}

/**
 * Prices each routed source's gas and flags the uneconomic ones (docs/source-economics.md). Pure.
 *
 * - The native token's USD price comes from, in order: a native source of the request with `usdValue`
 *   (`request_source`), a native target with `priceUSD` (`request_target`), a provider's value of a native slice it
 *   was asked to move (`provider:<name>`); the same price serves every chain whose native token has that symbol.
 * - The source's value is its `usdValue`, else the sum of its slices' provider input values.
 * - costShareBps is cost ÷ value: exact in wei for a native source, else from the two USD figures.
 * - uneconomic: costShareBps ≥ the request's threshold (default 5 000); null when either side has no figure.
 */
export function sourceGasReport(input: SourceGasReportInput): SourceGasReport {
  const { request } = input;
  const thresholdBps = request.uneconomicThresholdBps ?? QUOTE_LIMITS.defaultUneconomicThresholdBps;
  const prices = nativePrices(input);
  const estimated = input.figures.map((f) => estimate(f, input, prices, thresholdBps));
  const excluded = (input.excluded ?? []).map((e) => ({ ...e, excluded: true }));
  return {
    thresholdBps,
    excludeUneconomicSources: request.excludeUneconomicSources ?? false,
    sources: [...estimated, ...excluded].sort((a, b) => a.inputTokenIndex - b.inputTokenIndex),
    totals: totals(estimated, excluded.length),
  };
}

/** The routed sources the report flags uneconomic (the ones `excludeUneconomicSources` leaves out). */
export function uneconomicSourceIndexes(report: SourceGasReport): number[] {
  return report.sources.filter((s) => s.uneconomic === true && !s.excluded).map((s) => s.inputTokenIndex);
}

function estimate(
  f: SourceGasFigures,
  input: SourceGasReportInput,
  prices: ReadonlyMap<string, { usd: number; source: string }>,
  thresholdBps: number,
): SourceGasEstimate {
  const source = input.request.sources[f.inputTokenIndex];
  const base = {
    inputTokenIndex: f.inputTokenIndex,
    chainId: f.chainId,
    address: source.address,
    symbol: source.symbol ?? '',
    nativeSymbol: f.nativeSymbol,
    transactions: f.transactions,
    excluded: false,
  };
  const value = sourceValue(f.inputTokenIndex, input);
  if (f.status === 'unavailable') {
    return {
      ...base,
      status: 'unavailable',
      reason: f.reason,
      gasUnits: null,
      baseFeePerGasWei: null,
      priorityFeePerGasWei: null,
      l1DataFeeWei: null,
      costNativeRaw: null,
      nativePriceUsd: null,
      nativePriceSource: null,
      costUsd: null,
      valueUsd: value?.usd ?? null,
      valueSource: value?.source ?? null,
      netValueUsd: null,
      costShareBps: null,
      uneconomic: null,
    };
  }
  const price = prices.get(f.nativeSymbol) ?? null;
  const costUsd = price === null ? null : roundUsd((Number(f.costNative) / WEI_PER_NATIVE) * price.usd);
  const costShareBps = shareBps(f, source, costUsd, value?.usd ?? null);
  return {
    ...base,
    status: 'estimated',
    reason: null,
    gasUnits: f.gasUnits.toString(),
    baseFeePerGasWei: f.baseFeePerGas.toString(),
    priorityFeePerGasWei: f.priorityFeePerGas.toString(),
    l1DataFeeWei: f.l1DataFee.toString(),
    costNativeRaw: f.costNative.toString(),
    nativePriceUsd: price?.usd ?? null,
    nativePriceSource: price?.source ?? null,
    costUsd,
    valueUsd: value?.usd ?? null,
    valueSource: value?.source ?? null,
    netValueUsd: costUsd === null || value === null ? null : roundUsd(value.usd - costUsd),
    costShareBps,
    uneconomic: costShareBps === null ? null : costShareBps >= thresholdBps,
  };
}

function shareBps(
  f: SourceGasFigures,
  source: QuoteRequest['sources'][number],
  costUsd: number | null,
  valueUsd: number | null,
): number | null {
  if (isNative(source.address)) {
    // Gas is paid in the very token moved: exact, no price needed.
    const amount = BigInt(source.amount);
    return Number((f.costNative * 10_000n + amount - 1n) / amount);
  }
  if (costUsd === null || valueUsd === null) return null;
  if (valueUsd <= 0) return costUsd > 0 ? Number.MAX_SAFE_INTEGER : 0;
  return Math.ceil((costUsd / valueUsd) * 10_000);
}

function sourceValue(index: number, input: SourceGasReportInput): { usd: number; source: string } | null {
  const own = input.request.sources[index].usdValue;
  if (own !== undefined) return { usd: roundUsd(Number(own)), source: 'request' };
  const slices = input.providerValues.filter((v) => v.sourceIndex === index);
  const usd = slices.length === 0 ? null : sumUsd(slices.map((v) => v.inputUsd));
  if (usd === null) return null;
  return { usd, source: `provider:${[...new Set(slices.map((v) => v.provider))].join('+')}` };
}

/** Per native symbol, the first price found in the documented order. */
function nativePrices(input: SourceGasReportInput): Map<string, { usd: number; source: string }> {
  const prices = new Map<string, { usd: number; source: string }>();
  const offer = (chainId: number, usd: number, source: string) => {
    const symbol = input.nativeSymbols.get(chainId);
    if (symbol !== undefined && Number.isFinite(usd) && usd > 0 && !prices.has(symbol))
      prices.set(symbol, { usd: roundUsd(usd), source });
  };
  const { request } = input;
  for (const s of request.sources) {
    if (isNative(s.address) && s.usdValue !== undefined)
      offer(s.chainId, Number(s.usdValue) / wholeUnits(BigInt(s.amount), s.decimals), 'request_source');
  }
  for (const t of request.target ? [request.target] : request.targets) {
    if (isNative(t.address) && t.targetToken.priceUSD !== undefined)
      offer(t.chainId, Number(t.targetToken.priceUSD), 'request_target');
  }
  for (const v of input.providerValues) {
    const s = request.sources[v.sourceIndex];
    if (isNative(s.address) && v.inputUsd !== null && v.rawAmount > 0n)
      offer(s.chainId, v.inputUsd / wholeUnits(v.rawAmount, s.decimals), `provider:${v.provider}`);
  }
  return prices;
}

function totals(routed: readonly SourceGasEstimate[], excludedCount: number): SourceGasTotals {
  const costUsd = sumUsd(routed.map((s) => s.costUsd));
  const valueUsd = sumUsd(routed.map((s) => s.valueUsd));
  return {
    costUsd,
    valueUsd,
    netValueUsd: costUsd === null || valueUsd === null ? null : roundUsd(valueUsd - costUsd),
    perChain: perChain(routed.filter((s) => s.status === 'estimated')),
    uneconomicSourceCount: routed.filter((s) => s.uneconomic === true).length,
    excludedSourceCount: excludedCount,
  };
}

/** The 21 000 gas every transaction pays before its first opcode (EIP-2028 calldata is counted per call still). */
const INTRINSIC_GAS = 21_000n;

function perChain(estimated: readonly SourceGasEstimate[]): SourceGasChainTotals[] {
  const chains = new Map<number, SourceGasEstimate[]>();
  for (const s of estimated) chains.set(s.chainId, [...(chains.get(s.chainId) ?? []), s]);
  return [...chains.entries()].map(([chainId, sources]) => {
    const count = sources.reduce((n, s) => n + s.transactions.length, 0);
    const gas = sources.reduce((n, s) => n + BigInt(s.gasUnits!), 0n);
    const l1 = sources.reduce((n, s) => n + BigInt(s.l1DataFeeWei!), 0n);
    const feePerGas = BigInt(sources[0].baseFeePerGasWei!) + BigInt(sources[0].priorityFeePerGasWei!);
    const atomicGas = count > 1 ? gas - BigInt(count - 1) * INTRINSIC_GAS : gas;
    return {
      chainId,
      nativeSymbol: sources[0].nativeSymbol,
      transactionCount: count,
      gasUnits: gas.toString(),
      costNativeRaw: sources.reduce((n, s) => n + BigInt(s.costNativeRaw!), 0n).toString(),
      atomicBatchGasUnits: atomicGas.toString(),
      atomicBatchCostNativeRaw: (atomicGas * feePerGas + l1).toString(),
    };
  });
}

function isNative(address: string): boolean {
  return address.toLowerCase() === NATIVE;
}

function wholeUnits(raw: bigint, decimals: number): number {
  return Number(raw) / 10 ** decimals;
}

import fc from 'fast-check';
import { allocate } from './allocate';
import {
  type AllocationInput,
  type AllocationResult,
  type AllocationSource,
  type AllocationTarget,
} from './allocation.types';
import { formatRaw } from './format-raw';
import { parseDecimal } from './parse-decimal';
import { percentUnits, targetQuotas } from './target-quotas';
import { usdDecimalsFor } from './usd-scale';

const MAX_UINT256 = 2n ** 256n - 1n;
// Few chains, addresses and symbols, so no-ops, same-chain pairs and same-symbol routes are common.
const ADDRESSES = [
  '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  '0x0000000000000000000000000000000000000000',
];
const token = {
  chainId: fc.constantFrom(1, 8453, 42161),
  address: fc
    .tuple(fc.constantFrom(...ADDRESSES), fc.boolean())
    .map(([a, upper]) => (upper ? `0x${a.slice(2).toUpperCase()}` : a.toLowerCase())),
  symbol: fc.constantFrom('USDC', 'usdc', 'ETH', 'DAI', null),
  decimals: fc.integer({ min: 0, max: 36 }),
};
// Small amounts make pieces that floor to zero; large ones cover the whole uint256 range.
const amount = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: MAX_UINT256 }));
// Up to 30 fraction digits: past the 18 of the default USD scale.
const usd = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.integer({ min: 0, max: 30 }))
  .map(([mantissa, digits]) => formatRaw(mantissa, digits));

function sourcesArb(usdValue: fc.Arbitrary<string | null>): fc.Arbitrary<AllocationSource[]> {
  return fc
    .array(fc.record({ ...token, amount, usdValue }), { minLength: 1, maxLength: 50 })
    .map((sources) => sources.map((s, index) => ({ index, ...s })));
}

/** Positive percentages summing to 100, with 0, 2, 4 or 6 decimals (as partners send them). */
function percentsArb(count: number): fc.Arbitrary<number[]> {
  return fc.constantFrom(1, 100, 10_000, 1_000_000).chain((step) =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: 100_000_000 / step - 1 }), {
        minLength: count - 1,
        maxLength: count - 1,
      })
      .map((cuts) => {
        const bounds = [0, ...cuts.map((c) => c * step).sort((a, b) => a - b), 100_000_000];
        return bounds.slice(1).map((b, i) => (b - (bounds[i] ?? 0)) / 1_000_000);
      }),
  );
}

function targetsArb(min: number, max: number): fc.Arbitrary<AllocationTarget[]> {
  return fc
    .integer({ min, max })
    .chain((count) =>
      fc
        .tuple(fc.array(fc.record(token), { minLength: count, maxLength: count }), percentsArb(count))
        .map(([tokens, percents]) =>
          tokens.map((t, i) => ({ id: `t${i}`, ...t, allocationPercent: percents[i] ?? 0 })),
        ),
    );
}

/** Sources arrive shuffled: only `index` may matter. */
function inputArb(sources: fc.Arbitrary<AllocationSource[]>, targets: fc.Arbitrary<AllocationTarget[]>) {
  return fc
    .tuple(sources, targets)
    .chain(([s, t]) =>
      fc
        .shuffledSubarray(s, { minLength: s.length, maxLength: s.length })
        .map((shuffled): AllocationInput => ({ sources: shuffled, targets: t })),
    );
}

function slicesOf(result: AllocationResult) {
  return result.legs.flatMap((leg) => leg.slices.map((slice) => ({ leg, slice })));
}

/** Invariants of every plan, whatever the number of targets. */
function expectWellFormed(input: AllocationInput, result: AllocationResult): void {
  expect(result.legs.map((l) => l.target)).toEqual(input.targets);
  for (const source of input.sources) {
    const pieces = slicesOf(result).filter(({ slice }) => slice.sourceIndex === source.index);
    expect(pieces.reduce((sum, { slice }) => sum + slice.rawAmount, 0n)).toBe(source.amount);
    for (const { leg, slice } of pieces) {
      expect(slice.rawAmount > 0n).toBe(true);
      expect(slice).toMatchObject({
        sliceId: `${leg.target.id}:${source.index}`,
        targetId: leg.target.id,
        chainId: source.chainId,
        address: source.address,
        symbol: source.symbol,
        decimals: source.decimals,
        formattedAmount: formatRaw(slice.rawAmount, source.decimals),
      });
      const sameChain = source.chainId === leg.target.chainId;
      const sameAddress = source.address.toLowerCase() === leg.target.address.toLowerCase();
      expect(slice.kind).toBe(sameChain ? (sameAddress ? 'noop' : 'same_chain_unsupported') : 'route');
      const sameSymbol =
        source.symbol !== null && source.symbol.toLowerCase() === leg.target.symbol?.toLowerCase();
      expect(slice.isSameSymbolRoute).toBe(!sameChain && sameSymbol);
    }
  }
  for (const leg of result.legs) {
    const order = leg.slices.map((s) => s.sourceIndex);
    expect(order).toEqual([...new Set(order)].sort((a, b) => a - b));
  }
}

describe('allocate, properties', () => {
  it('single target: every source is one whole slice, and the plan is well formed', () => {
    fc.assert(
      fc.property(inputArb(sourcesArb(fc.option(usd, { nil: null })), targetsArb(1, 1)), (input) => {
        const result = allocate(input);
        expectWellFormed(input, result);
        expect(result.legs[0]?.slices).toHaveLength(input.sources.length);
      }),
    );
  });

  it('several targets: a well-formed plan, USD exact per source and within the bound per target', () => {
    fc.assert(
      fc.property(inputArb(sourcesArb(usd), targetsArb(2, 5)), (input) => {
        const result = allocate(input);
        expectWellFormed(input, result);
        expectUsdWithinBound(input, result);
      }),
      { numRuns: 300 },
    );
  });

  it('several targets: at most sources + targets - 1 slices, so the fan-out of a quote is bounded (M1)', () => {
    fc.assert(
      fc.property(inputArb(sourcesArb(usd), targetsArb(2, 5)), (input) => {
        const slices = allocate(input).legs.reduce((n, leg) => n + leg.slices.length, 0);
        expect(slices).toBeLessThanOrEqual(input.sources.length + input.targets.length - 1);
      }),
      { numRuns: 300 },
    );
  });

  it('several targets: a no-op source only leaves its target once that target quota is full', () => {
    fc.assert(
      fc.property(inputArb(sourcesArb(usd), targetsArb(2, 5)), (input) => {
        const { usdOf, quotas, bound } = usdModel(input);
        const result = allocate(input);
        result.legs.forEach((leg, t) => {
          const noopSources = new Set(leg.slices.filter((s) => s.kind === 'noop').map((s) => s.sourceIndex));
          const spentElsewhere = slicesOf(result).some(
            ({ slice }) =>
              slice.kind !== 'noop' &&
              input.sources.some(
                (s) =>
                  s.index === slice.sourceIndex &&
                  s.chainId === leg.target.chainId &&
                  s.address.toLowerCase() === leg.target.address.toLowerCase(),
              ),
          );
          if (!spentElsewhere) return;
          const noopUsd = leg.slices
            .filter((s) => noopSources.has(s.sourceIndex))
            .reduce((sum, s) => sum + usdOf(s.usdValue), 0n);
          expect(abs(noopUsd - (quotas[t] ?? 0n)) <= bound).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic: the same input, or the same sources in another order, gives a deep-equal plan', () => {
    fc.assert(
      fc.property(inputArb(sourcesArb(usd), targetsArb(1, 5)), (input) => {
        const byIndex = { ...input, sources: [...input.sources].sort((a, b) => a.index - b.index) };
        expect(allocate(input)).toEqual(allocate(structuredClone(input)));
        expect(allocate(input)).toEqual(allocate(byIndex));
      }),
    );
  });
});

/**
 * The bound: a target's slice USD differs from its quota by at most (targets − 1) × (u + 1) scale units, u being
 * the largest USD value of one raw unit of any source (ceil(usd / amount)). Each split piece but a source's last
 * loses less than u + 1 to flooring (raw, then USD re-derived from raw), the last piece gains what the others
 * lost, and the greedy fill creates at most sources + targets − 1 pieces, so at most targets − 1 of them are
 * extra pieces of split sources.
 */
function usdModel(input: AllocationInput) {
  const decimals = usdDecimalsFor(input.sources.map((s) => s.usdValue));
  const usdOf = (value: string | null) => parseDecimal(value ?? '0', decimals);
  const sourceUsd = input.sources.map((s) => usdOf(s.usdValue));
  const portfolio = sourceUsd.reduce((sum, u) => sum + u, 0n);
  const quotas = targetQuotas(
    portfolio,
    input.targets.map((t) => t.allocationPercent),
  );
  const unit = input.sources.reduce((most, s, i) => max(most, ceilDiv(sourceUsd[i] ?? 0n, s.amount)), 0n);
  const bound = BigInt(input.targets.length - 1) * (unit + 1n);
  return { usdOf, portfolio, quotas, bound };
}

function expectUsdWithinBound(input: AllocationInput, result: AllocationResult): void {
  const { usdOf, portfolio, quotas, bound } = usdModel(input);
  for (const source of input.sources) {
    const pieces = slicesOf(result).filter(({ slice }) => slice.sourceIndex === source.index);
    expect(pieces.reduce((sum, { slice }) => sum + usdOf(slice.usdValue), 0n)).toBe(usdOf(source.usdValue));
  }
  const units = input.targets.map((t) => percentUnits(t.allocationPercent));
  const totalUnits = units.reduce((a, b) => a + b, 0n);
  result.legs.forEach((leg, t) => {
    const allocated = leg.slices.reduce((sum, s) => sum + usdOf(s.usdValue), 0n);
    expect(abs(allocated - (quotas[t] ?? 0n)) <= bound).toBe(true);
    // Against the exact share too, not only against targetQuotas: flooring the quotas adds < targets − 1 units.
    const exactShare = portfolio * (units[t] ?? 0n);
    const slack = (bound + BigInt(input.targets.length)) * totalUnits;
    expect(abs(allocated * totalUnits - exactShare) <= slack).toBe(true);
  });
}

const abs = (x: bigint) => (x < 0n ? -x : x);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

import {
  type AllocationInput,
  type AllocationResult,
  type AllocationSlice,
  type AllocationSource,
  type AllocationTarget,
} from './allocation.types';
import { checkAllocationInput } from './check-allocation-input';
import { fillQuotas } from './fill-quotas';
import { formatRaw } from './format-raw';
import { normalizeDecimal, parseDecimal } from './parse-decimal';
import { isSameSymbolRoute, sliceKind } from './slice-kind';
import { splitSource } from './split-source';
import { targetQuotas } from './target-quotas';
import { usdDecimalsFor } from './usd-scale';

/**
 * Assigns every source, in full, to the targets. One target takes every source whole; several split the
 * portfolio's USD value by allocationPercent (see fillQuotas for the order, splitSource for the rounding).
 * A pure function of its input: sources are processed by `index`, never by array position.
 */
export function allocate(input: AllocationInput): AllocationResult {
  checkAllocationInput(input);
  const sources = [...input.sources].sort((a, b) => a.index - b.index);
  if (input.targets.length === 1) {
    const target = input.targets[0];
    const slices = sources.map((s) => toSlice(s, target, s.amount, mapNull(s.usdValue, normalizeDecimal)));
    return { legs: [{ target, slices }] };
  }
  return splitAcrossTargets(sources, input.targets);
}

function splitAcrossTargets(
  sources: readonly AllocationSource[],
  targets: readonly AllocationTarget[],
): AllocationResult {
  const usdDecimals = usdDecimalsFor(sources.map((s) => s.usdValue));
  const sourceUsd = sources.map((s) => parseDecimal(s.usdValue ?? '0', usdDecimals));
  const portfolio = sourceUsd.reduce((sum, usd) => sum + usd, 0n);
  const quotas = targetQuotas(
    portfolio,
    targets.map((t) => t.allocationPercent),
  );
  const assigned = fillQuotas(sources, sourceUsd, targets, quotas);
  const pieces = sources.map((source, s) =>
    splitSource(
      source.amount,
      sourceUsd[s],
      assigned.map((row) => row[s]),
    ),
  );
  return {
    legs: targets.map((target, t) => ({
      target,
      slices: sources.flatMap((source, s) => {
        const piece = pieces[s][t];
        if (piece.raw === 0n) return [];
        return [toSlice(source, target, piece.raw, formatRaw(piece.usd, usdDecimals))];
      }),
    })),
  };
}

function toSlice(
  source: AllocationSource,
  target: AllocationTarget,
  rawAmount: bigint,
  usdValue: string | null,
): AllocationSlice {
  return {
    sliceId: `${target.id}:${source.index}`,
    targetId: target.id,
    sourceIndex: source.index,
    chainId: source.chainId,
    address: source.address,
    symbol: source.symbol,
    decimals: source.decimals,
    rawAmount,
    formattedAmount: formatRaw(rawAmount, source.decimals),
    usdValue,
    kind: sliceKind(source, target),
    isSameSymbolRoute: isSameSymbolRoute(source, target),
  };
}

function mapNull<T, U>(value: T | null, f: (value: T) => U): U | null {
  return value === null ? null : f(value);
}

import { formatUnits } from 'viem';

/** Micro-USD as the decimal string the dialects display ("12.345678"); display only, never used for math. */
export function formatMicroUsd(microUsd: bigint): string {
  return formatUnits(microUsd, 6);
}

/** Micro-USD as a JSON number, for fields the real APIs send as numbers (Mayan's `clientRelayerFeeSuccess`). */
export function microUsdToNumber(microUsd: bigint): number {
  return Number(formatUnits(microUsd, 6));
}

/** `part / whole` as a percent string with two decimals ("-0.12"), computed in integers. */
export function formatPercent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '0';
  return formatUnits((part * 10_000n) / whole, 2);
}

import { formatUnits } from 'viem';

/** Output per one input unit in human terms ("2999.82"), from base units without floats. */
export function formatRate(
  amountIn: bigint,
  decimalsIn: number,
  amountOut: bigint,
  decimalsOut: number,
): string {
  if (amountIn === 0n) return '0';
  const scaled =
    (amountOut * 10n ** BigInt(decimalsIn) * 10n ** 18n) / (amountIn * 10n ** BigInt(decimalsOut));
  return formatUnits(scaled, 18);
}

/**
 * `amount` of one token expressed in another of equal USD value (prices in micro-USD), rounded down; bigint
 * throughout so no amount ever passes through floating point.
 */
export function convertByValue(
  amount: bigint,
  from: { decimals: number; priceMicroUsd: bigint },
  to: { decimals: number; priceMicroUsd: bigint },
): bigint {
  return (
    (amount * from.priceMicroUsd * 10n ** BigInt(to.decimals)) /
    (to.priceMicroUsd * 10n ** BigInt(from.decimals))
  );
}

import { baseUnitsOrNull, isRecord, optionalRecord } from '../response/json-fields';

/**
 * The received amount from a `/deposit` answer: `outputAmount` is the bridge leg, which is what the recipient
 * got unless a destination swap followed; then only the swap's minimum is known, so the amount is unknown.
 */
export function acrossDepositOutput(body: unknown): bigint | null {
  const deposit = isRecord(body) ? optionalRecord(body.deposit) : undefined;
  if (deposit === undefined) return null;
  if (deposit.swapOutputTokenAmount !== undefined && deposit.swapOutputTokenAmount !== null) return null;
  return baseUnitsOrNull(deposit.outputAmount);
}

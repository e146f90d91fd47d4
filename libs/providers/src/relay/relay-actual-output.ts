import { type Hex } from 'viem';
import { baseUnitsOrNull, isRecord, optionalRecord, txHashOrNull } from '../response/json-fields';

/**
 * The received amount and fill hash from a `/requests/v3?id=` answer: route.actual.destination.outputCurrency,
 * or origin for a same-chain request (reference/providers.md §1.4). Nulls when the record does not say.
 */
export function relayActualOutput(body: unknown): { amount: bigint | null; fillTxHash: Hex | null } {
  const request =
    isRecord(body) && Array.isArray(body.requests) ? optionalRecord(body.requests[0]) : undefined;
  const data = optionalRecord(request?.data);
  const actual = optionalRecord(optionalRecord(data?.route)?.actual);
  const amount =
    baseUnitsOrNull(optionalRecord(optionalRecord(actual?.destination)?.outputCurrency)?.amount) ??
    baseUnitsOrNull(optionalRecord(optionalRecord(actual?.origin)?.outputCurrency)?.amount);
  const outTx = Array.isArray(data?.outTxs) ? optionalRecord((data.outTxs as unknown[])[0]) : undefined;
  return { amount, fillTxHash: txHashOrNull(outTx?.txHash) };
}

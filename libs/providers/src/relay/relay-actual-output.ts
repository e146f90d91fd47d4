import { type Address, type Hex, isAddress } from 'viem';
import {
  baseUnitsOrNull,
  chainIdOrNull,
  isRecord,
  optionalRecord,
  txHashOrNull,
} from '../response/json-fields';

/**
 * The received amount and fill hash from a `/requests/v3?id=` answer: `route.actual.destination.outputCurrency`
 * (reference/providers.md §1.4). Nulls when the record does not say.
 *
 * `route.actual.origin.outputCurrency` is what the origin leg produced, on the origin chain: the received amount
 * only when origin and destination are one chain. On a cross-chain request it is another chain's amount, often in
 * another token, so it is never read there (reviews/providers.md D13).
 */
export function relayActualOutput(
  body: unknown,
  options: { sameChain: boolean },
): { amount: bigint | null; fillTxHash: Hex | null } {
  const request =
    isRecord(body) && Array.isArray(body.requests) ? optionalRecord(body.requests[0]) : undefined;
  const data = optionalRecord(request?.data);
  const actual = optionalRecord(optionalRecord(data?.route)?.actual);
  const outputOf = (side: unknown) =>
    baseUnitsOrNull(optionalRecord(optionalRecord(side)?.outputCurrency)?.amount);
  const amount = outputOf(actual?.destination) ?? (options.sameChain ? outputOf(actual?.origin) : null);
  const outTx = Array.isArray(data?.outTxs) ? optionalRecord((data.outTxs as unknown[])[0]) : undefined;
  return { amount, fillTxHash: txHashOrNull(outTx?.txHash) };
}

/**
 * Where a refund was paid, from a `/requests/v3?id=` answer: the `data.outTxs[]` entry carrying the refund hash
 * (else the first, which is what Relay's own UI shows for a refund), else `data.refundCurrencyData.currency.chainId`
 * (relay-kit packages/ui/src/components/common/TransactionModal/steps/ErrorStep.tsx reads exactly these two).
 * `token`: `data.refundCurrencyData.currency.address`, the currency Relay refunded in, which "can vary by route"
 * (relay-docs references/api/api_core_concepts/refunds.mdx: after an origin swap, e.g. USDC), so it is never assumed
 * to be the source token (provider review N10; relay-kit packages/sdk/src/types/api.ts `refundCurrencyData`).
 * Nulls when the record does not say.
 */
export function relayRefundRecord(
  body: unknown,
  refundTxHash: Hex | null,
): { chainId: number | null; txHash: Hex | null; token: Address | null } {
  const request =
    isRecord(body) && Array.isArray(body.requests) ? optionalRecord(body.requests[0]) : undefined;
  const data = optionalRecord(request?.data);
  const outTxs = Array.isArray(data?.outTxs)
    ? (data.outTxs as unknown[]).map(optionalRecord).filter((tx) => tx !== undefined)
    : [];
  const refundTx =
    (refundTxHash === null
      ? undefined
      : outTxs.find((tx) => txHashOrNull(tx.txHash)?.toLowerCase() === refundTxHash.toLowerCase())) ??
    outTxs[0];
  const refundCurrency = optionalRecord(optionalRecord(data?.refundCurrencyData)?.currency);
  const token = refundCurrency?.address;
  return {
    chainId: chainIdOrNull(refundTx?.chainId) ?? chainIdOrNull(refundCurrency?.chainId),
    txHash: txHashOrNull(refundTx?.txHash),
    token: typeof token === 'string' && isAddress(token, { strict: false }) ? token : null,
  };
}

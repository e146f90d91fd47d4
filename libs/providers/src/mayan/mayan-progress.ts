import { type LegProgress } from '../leg-progress';
import { type JsonRecord, optionalText, record, text, txHashOrNull } from '../response/json-fields';
import { humanToBaseUnits } from './human-to-base-units';
import { evmChainIdOfWormhole } from './mayan-chains';

/**
 * An explorer `/swap/trx/{hash}` answer as our progress (reference/providers.md §3.4, corrected by
 * reviews/providers.md §7 and D2).
 *
 * `clientStatus` is `INPROGRESS | COMPLETED | REFUNDED | CANCELED` (mayan-finance/wormhole-sdk-route src/utils.ts,
 * 7828f649: `enum MayanClientStatus`). Mayan's own route code maps CANCELED exactly like REFUNDED
 * (`txStatusToReceipt`: `clientStatus === REFUNDED || clientStatus === CANCELED` → `TransferState.Refunded`, with
 * the refund tx on `refundChain`), so a canceled order is refunded here too, not left pending until the tracking
 * limit. But on chain the cancel comes first, on the destination (`cancelOrder`: `Status.CANCELED`, `OrderCanceled`),
 * and the refund later, on the source, once the cancel's Wormhole message arrives (`refundOrder`: `OrderRefunded`;
 * mayan-finance/swap-bridge src/MayanSwift.sol). A CANCELED answer without `refundTxHash` is that gap (providers
 * review N14): the leg stays pending, owed until the order's deadline plus the refund window, until the refund
 * transaction is named; it is never closed with a null refund.
 */
export function mayanProgress(body: unknown, targetDecimals: number): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.clientStatus, 'clientStatus');
  switch (providerStatus) {
    case 'COMPLETED':
      return {
        state: 'filled',
        providerStatus,
        destinationTxHash: txHashOrNull(answer.fulfillTxHash),
        actualOutputRaw: humanToBaseUnits(answer.toAmount, targetDecimals),
      };
    case 'CANCELED':
      if (txHashOrNull(answer.refundTxHash) === null) {
        return { state: 'pending', providerStatus, fillDeadlineAt: dateOrNull(answer.deadline) };
      }
      return refunded(answer, providerStatus);
    case 'REFUNDED':
      return refunded(answer, providerStatus);
    case 'FAILED':
      // Not in Mayan's documented enum; third-party clients see it, so it is treated as terminal.
      return { state: 'failed', providerStatus, reason: optionalText(answer.status) };
    default:
      // INPROGRESS (and PENDING, seen in third-party code): keep polling, until the order's own deadline (plus the
      // refund path) at least: `deadline` is the order's deadline64 as a date (mayan-finance/driver-sdk
      // src/watchers/mayan-explorer.ts reads it as `new Date(rawSwap.deadline)`; wormhole-sdk-route src/utils.ts
      // TransactionStatus.deadline).
      return { state: 'pending', providerStatus, fillDeadlineAt: dateOrNull(answer.deadline) };
  }
}

/** Epoch ms of an ISO date string; null when absent or unreadable. */
function dateOrNull(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** A refunded (or canceled, with its refund named) order as our progress. */
function refunded(answer: JsonRecord, providerStatus: string): LegProgress {
  return {
    state: 'refunded',
    providerStatus,
    refundTxHash: txHashOrNull(answer.refundTxHash),
    reason: null,
    // `refundChain` is a Wormhole chain id string (wormhole-sdk-route `TransactionStatus.refundChain`, and the
    // chain its receipt puts the refund tx on). A Swift refund goes back to the source chain ("Unsuccessful
    // auction, refund back to source chain (evm)", same file, possibleVaaTypes), but only what the explorer
    // says is reported: null when it names no EVM chain we know.
    refundChainId: evmChainIdOfWormhole(answer.refundChain),
  };
}

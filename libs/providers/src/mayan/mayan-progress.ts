import { type LegProgress } from '../leg-progress';
import { optionalText, record, text, txHashOrNull } from '../response/json-fields';
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
 * limit.
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
    case 'REFUNDED':
    case 'CANCELED':
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
    case 'FAILED':
      // Not in Mayan's documented enum; third-party clients see it, so it is treated as terminal.
      return { state: 'failed', providerStatus, reason: optionalText(answer.status) };
    default:
      // INPROGRESS (and PENDING, seen in third-party code): keep polling.
      return { state: 'pending', providerStatus };
  }
}

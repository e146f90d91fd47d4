import { jsonReply, type RouteHandler } from '../http/sandbox-http';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { acrossStatus } from './across-status';
import { type CctpBurn } from '../cctp/cctp-burn-book';
import { findAcrossDepositOrBurn } from './find-across-deposit';

/**
 * `GET /deposit/status`: 404 DepositNotFoundException until the watcher indexes the deposit (reference §2.4);
 * `index` picks one of several deposits in a transaction and `pagination` says how many there are. An unfilled
 * deposit is `expired` once the destination chain's latest block is past its fillDeadline (issue 24 S14).
 */
export function acrossDepositStatusHandler(context: SandboxContext): RouteHandler {
  return async (request) => {
    const found = findAcrossDepositOrBurn(context, request.query);
    if (found.kind === 'cctp') return jsonReply(200, cctpDepositStatus(found.burn, found.pagination));
    const { transfer: t, pagination } = found;
    const unfilled = t.status !== 'filled' && t.status !== 'refunded';
    const pastFillDeadline = unfilled && (await chainTime(context, t.destinationChainId)) > t.fillDeadline;
    return jsonReply(200, {
      status: acrossStatus(t.status, pastFillDeadline),
      originChainId: t.sourceChainId,
      depositId: t.depositId,
      depositTxHash: t.sourceTxHash,
      depositTxnRef: t.sourceTxHash,
      fillTx: t.fillTxHash ?? null,
      fillTxnRef: t.fillTxHash ?? null,
      destinationChainId: t.destinationChainId,
      depositRefundTxHash: t.refundTxHash ?? null,
      depositRefundTxnRef: t.refundTxHash ?? null,
      actionsSucceeded: actionsSucceeded(t),
      pagination,
    });
  };
}

/**
 * A CCTP burn's status as the indexer answers it (services/deposits.ts `getDepositStatusForCctpDeposit`): `pending`
 * until a `MessageReceived` with its nonce is indexed, then `filled` with that transaction as fillTx;
 * `depositId` is the MessageSent row's nonce (empty as emitted, the attestation's `eventNonce` once attested:
 * indexer CctpFinalizerService.ts), `destinationChainId` the receiving chain's once received, else null.
 */
function cctpDepositStatus(burn: CctpBurn, pagination: { currentIndex: number; maxIndex: number }) {
  const fillTx = burn.status === 'minted' ? burn.mintTxHash! : null;
  return {
    status: fillTx === null ? 'pending' : 'filled',
    originChainId: burn.sourceChainId,
    depositId: burn.attestation ? burn.nonce : burn.decoded.nonce,
    depositTxHash: burn.sourceTxHash,
    depositTxnRef: burn.sourceTxHash,
    fillTx,
    fillTxnRef: fillTx,
    destinationChainId: fillTx === null ? null : burn.destinationChainId,
    depositRefundTxHash: null,
    depositRefundTxnRef: null,
    actionsSucceeded: null,
    actionsTargetChainId: null,
    pagination,
  };
}

/** The chain's own time: its latest block's timestamp, unix seconds (what the SpokePool compares fillDeadline with). */
async function chainTime(context: SandboxContext, chainId: number): Promise<number> {
  const block = await context.clients.public(chainId).getBlock({ blockTag: 'latest' });
  return Number(block.timestamp);
}

/**
 * across-protocol/indexer services/deposits.ts: `includedActions && status === Filled ? callsFailedEventId ===
 * null : null`. Only the destination-action-failed scenario carries actions in the sandbox, and they fail.
 */
export function actionsSucceeded(t: AcrossTransfer): boolean | null {
  return t.scenario === 'destination-action-failed' && t.status === 'filled' ? false : null;
}

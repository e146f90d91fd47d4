import { type LegProgress } from '../leg-progress';
import { type Address } from 'viem';
import { chainIdOrNull, isRecord, optionalRecord, record, text, txHashOrNull } from '../response/json-fields';

/**
 * A `/deposit/status` answer as our progress (reference/providers.md §2.4).
 *
 * A `filled` answer may still hide a failed destination action (`actionsSucceeded: false`): the adapter reads
 * that with `acrossActionsFailed` and the bridged token from `/deposit`.
 */
export function acrossProgress(body: unknown): LegProgress {
  const answer = record(body, 'body');
  const providerStatus = text(answer.status, 'status');
  switch (providerStatus) {
    case 'filled':
    case 'slowFilled':
      return {
        state: 'filled',
        providerStatus,
        destinationTxHash: txHashOrNull(answer.fillTxnRef) ?? txHashOrNull(answer.fillTx),
        actualOutputRaw: null,
      };
    case 'refunded':
      return {
        state: 'refunded',
        providerStatus,
        refundTxHash: txHashOrNull(answer.depositRefundTxnRef) ?? txHashOrNull(answer.depositRefundTxHash),
        reason: null,
        // "refunded: Deposit has expired and the depositor has been successfully refunded on the originChain"
        // (across-protocol/frontend docs/api-docs-openapi.yaml, /deposit/status); the answer names that chain.
        refundChainId: chainIdOrNull(answer.originChainId),
      };
    case 'deposit-failed':
      return { state: 'failed', providerStatus, reason: 'gasless deposit failed' };
    default:
      // pending, slowFillRequested, expired (a refund is coming with the next settlement bundle),
      // deposit-pending, and anything added later.
      return { state: 'pending', providerStatus };
  }
}

/**
 * The indexer sets `actionsSucceeded` only on a filled deposit that carried destination actions: false when the
 * MulticallHandler's calls failed (`callsFailedEventId` set), null otherwise (across-protocol/indexer
 * packages/indexer-api/src/services/deposits.ts, getDepositStatusForAcrossIntentsDeposit). Only a real `false`
 * counts: the docs' own example carries the string "null," here (frontend docs/api-docs-openapi.yaml).
 */
export function acrossActionsFailed(body: unknown): boolean {
  return isRecord(body) && body.actionsSucceeded === false;
}

/**
 * A slow fill of a deposit that carried destination actions (a non-empty `message`: the MulticallHandler's calls):
 * the indexer never reports their outcome for `slowFilled` (`actionsSucceeded` is set only when the status is
 * `Filled`: across-protocol/indexer packages/indexer-api/src/services/deposits.ts, a28c9a58), yet the pool runs the
 * message on a slow fill as on a fast one and the handler drains the bridged token to the fallback recipient when its
 * calls fail (providers review N13). Returns the bridged token to look for then; null when nothing is unreported.
 */
export function acrossUnreportedActionToken(
  statusBody: unknown,
  deposit: { body: unknown; outputToken: Address | null },
): Address | null {
  if (!isRecord(statusBody) || statusBody.status !== 'slowFilled' || statusBody.actionsSucceeded != null)
    return null;
  const record = isRecord(deposit.body) ? optionalRecord(deposit.body.deposit) : undefined;
  const message = record?.message;
  const carriesActions = typeof message === 'string' && message !== '' && message !== '0x';
  return carriesActions ? deposit.outputToken : null;
}

/** The answer's `depositId` as a base-10 string (the indexer sends a string, the docs an integer); else null. */
export function acrossAnsweredDepositId(body: unknown): string | null {
  if (!isRecord(body)) return null;
  const { depositId } = body;
  if (typeof depositId === 'string' && /^[0-9]+$/.test(depositId)) return BigInt(depositId).toString(10);
  if (typeof depositId === 'number' && Number.isSafeInteger(depositId) && depositId >= 0)
    return String(depositId);
  return null;
}

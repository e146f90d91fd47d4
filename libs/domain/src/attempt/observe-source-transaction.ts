import { type AttemptEvent } from './attempt.events';
import { type ObserveSourceTransaction } from './attempt.commands';
import { AttemptInputError } from './attempt-input.error';
import { type AttemptRecord } from './attempt-record';
import { evolveAttemptRecord } from './attempt.state';
import { flattenSlices } from './attempt-slices';
import { openSlices } from './attempt-progress';
import { withLifecycle } from './advance-lifecycle';

/**
 * How far before preparedAt a source transaction's block may be stamped and still count: block timestamps and our
 * clock may disagree by this much. Anything older was mined before the calls were handed out (a replay).
 */
export const SOURCE_TX_CLOCK_SKEW_MS = 60_000;

/**
 * Records what the tracker read about a source tx, once per (chain, tx); a mismatched tx never confirms. A tx mined
 * before the attempt was prepared, or claimed by another attempt, is evidence of something else: mismatched.
 */
export function observeSourceTransaction(
  state: AttemptRecord,
  command: ObserveSourceTransaction['data'],
): AttemptEvent[] {
  const { chainId, now: at } = command;
  const txHash = command.txHash.toLowerCase();
  if (!state.prepared.chainActions.some((a) => a.chainId === chainId)) {
    throw new AttemptInputError(`no chain action on chain ${chainId}`);
  }
  if (state.sourceTxs.some((t) => t.chainId === chainId && t.txHash === txHash)) return [];
  const refused = refusal(state, command);
  if (refused !== null) {
    return [{ type: 'SourceTransactionMismatched', data: { chainId, txHash, reason: refused, at } }];
  }
  switch (command.outcome) {
    case 'unknown':
      return [{ type: 'SourceTransactionUnknown', data: { chainId, txHash, reason: command.reason, at } }];
    case 'confirmed': {
      const { callIds, blockNumber } = command;
      const confirmed: AttemptEvent = {
        type: 'SourceTransactionConfirmed',
        data: { chainId, txHash, callIds, blockNumber, at },
      };
      return withLifecycle(state, [confirmed], at);
    }
    case 'reverted': {
      const reverted: AttemptEvent = { type: 'SourceTransactionReverted', data: { chainId, txHash, at } };
      const legs = failChainIfAllReverted(evolveAttemptRecord(state, reverted), chainId, at);
      return withLifecycle(state, [reverted, ...legs], at);
    }
    case 'mismatched':
      return [{ type: 'SourceTransactionMismatched', data: { chainId, txHash, reason: command.reason, at } }];
  }
}

/** Whether a transaction mined at `minedAt` (epoch ms) can be evidence of this attempt: not older than its prepare. */
export function minedAfterPrepare(prepared: { preparedAt: number }, minedAt: number): boolean {
  return minedAt >= prepared.preparedAt - SOURCE_TX_CLOCK_SKEW_MS;
}

function refusal(state: AttemptRecord, command: ObserveSourceTransaction['data']): string | null {
  if (command.outcome !== 'confirmed' && command.outcome !== 'reverted') return null;
  if (!minedAfterPrepare(state.prepared, command.minedAt)) {
    return 'mined before the attempt was prepared';
  }
  if (command.outcome === 'confirmed' && command.claimedBy !== null) {
    if (command.claimedBy !== state.prepared.attemptId) return 'already the evidence of another attempt';
  }
  return null;
}

/**
 * Once every tx known on a chain (reported or observed) reverted and none confirmed, nothing from that chain
 * can deliver: its open slices fail. A tx not yet classified (or mismatched) keeps them open for the tracker.
 */
function failChainIfAllReverted(state: AttemptRecord, chainId: number, at: number): AttemptEvent[] {
  const classified = state.sourceTxs.filter((t) => t.chainId === chainId);
  if (classified.some((t) => t.outcome === 'confirmed')) return [];
  const reverted = new Set(classified.filter((t) => t.outcome === 'reverted').map((t) => t.txHash));
  const reported = state.evidence.find((e) => e.chainId === chainId)?.txHashes ?? [];
  if (!reported.every((h) => reverted.has(h))) return [];
  const onChain = new Set(
    flattenSlices(state.prepared)
      .filter((s) => s.slice.sourceChainId === chainId)
      .map((s) => s.slice.sliceId),
  );
  return openSlices(state)
    .filter((s) => onChain.has(s.sliceId))
    .map((s) => ({
      type: 'LegFailed',
      data: {
        sliceId: s.sliceId,
        errorCode: 'source_reverted',
        errorMessage: `every source transaction on chain ${chainId} reverted`,
        refundTxHash: null,
        at,
      },
    }));
}

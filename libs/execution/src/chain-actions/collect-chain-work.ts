import { type ExecutionCall, type QuotedSliceExecution } from '@svc/domain';
import { type ChainActionsInput } from './chain-actions-input';
import { type QuoteDraft } from './to-chain-action';
import { InvalidQuotedExecutionError } from './invalid-quoted-execution.error';
import { noopTransfer } from './noop-transfer';
import { sameAddress } from './same-address';
import { slicePreview, type PreviewSource } from './slice-preview';

/**
 * A provider slice on its source chain, with its stored calls (approvals still to be planned) and the source
 * amount it moves (no approval is built for more).
 */
export type SliceWork = Omit<QuoteDraft, 'calls'> & {
  stored: readonly ExecutionCall[];
  amount: bigint;
  /** The request's source this slice moves (what a quote's source gas is reckoned per). */
  sourceIndex: number;
};

/** What one source chain executes: the provider slices in plan order, then the no-op transfers. */
export interface ChainWork {
  chainId: number;
  slices: SliceWork[];
  noops: (QuoteDraft & { sourceIndex: number })[];
}

/** No-op transfers are ours, not a provider's. */
export const DIRECT_PROVIDER = 'direct';

/** Sorts the legs' slices onto their source chains, in order of first appearance, checking the stored data. */
export function collectChainWork(input: ChainActionsInput): ChainWork[] {
  if (input.targets.length !== input.legs.length) {
    throw new InvalidQuotedExecutionError(`${input.legs.length} legs but ${input.targets.length} targets`);
  }
  const chains = new Map<number, ChainWork>();
  const on = (chainId: number): ChainWork => {
    const work = chains.get(chainId) ?? { chainId, slices: [], noops: [] };
    chains.set(chainId, work);
    return work;
  };
  // The recipient's own tokens already are where they belong: a no-op slice then needs nothing at all.
  const deliver = !sameAddress(input.recipient, input.wallet);
  input.legs.forEach((leg, legIndex) => {
    const target = input.targets[legIndex];
    if (target.targetId !== leg.targetId) {
      throw new InvalidQuotedExecutionError(`leg ${legIndex} is for ${leg.targetId}, not ${target.targetId}`);
    }
    const preview = (provider: string, source: PreviewSource, rawAmount: bigint, expectedOutputRaw: bigint) =>
      slicePreview({
        legIndex,
        provider,
        source,
        chainName: input.chainName(source.chainId),
        rawAmount,
        target,
        expectedOutputRaw,
      });
    for (const slice of leg.slices) {
      const source = sourceOf(input.sources, slice.sourceIndex);
      checkSlice(slice, source);
      const amount = BigInt(slice.quotedWith.source.amount);
      on(source.chainId).slices.push({
        provider: slice.provider,
        outputTargetId: leg.targetId,
        stored: slice.calls,
        amount,
        sourceIndex: slice.sourceIndex,
        preview: preview(slice.provider, source, amount, BigInt(slice.expectedOutputRaw)),
      });
    }
    if (!deliver) return;
    for (const noop of leg.noopSlices) {
      const source = sourceOf(input.sources, noop.sourceIndex);
      if (noop.chainId !== source.chainId || !sameAddress(noop.token, source.address)) {
        throw new InvalidQuotedExecutionError(`no-op slice ${noop.sliceId} is not its source's token`);
      }
      const amount = BigInt(noop.rawAmount);
      on(noop.chainId).noops.push({
        provider: DIRECT_PROVIDER,
        outputTargetId: leg.targetId,
        calls: [noopTransfer(noop, input.recipient)],
        sourceIndex: noop.sourceIndex,
        // The slice already is the target token: it delivers exactly its own amount.
        preview: preview(DIRECT_PROVIDER, source, amount, amount),
      });
    }
  });
  return [...chains.values()];
}

function sourceOf(sources: readonly PreviewSource[], index: number): PreviewSource {
  const source = sources[index];
  if (source === undefined) throw new InvalidQuotedExecutionError(`no source at index ${index}`);
  return source;
}

function checkSlice(slice: QuotedSliceExecution, source: PreviewSource): void {
  const asked = slice.quotedWith.source;
  if (asked.chainId !== source.chainId || !sameAddress(asked.token, source.address)) {
    throw new InvalidQuotedExecutionError(`slice ${slice.sliceId} was quoted for another source`);
  }
  const offChain = slice.calls.find((call) => call.chainId !== source.chainId);
  if (offChain !== undefined) {
    throw new InvalidQuotedExecutionError(
      `slice ${slice.sliceId} has a call on chain ${offChain.chainId}, not its source chain ${source.chainId}`,
    );
  }
  if (!slice.calls.some((call) => call.kind !== 'approve')) {
    throw new InvalidQuotedExecutionError(`slice ${slice.sliceId} has no call besides approvals`);
  }
  const foreign = slice.calls.find(
    (call) => call.kind === 'approve' && !sameAddress(call.approval?.token ?? call.to, source.address),
  );
  if (foreign !== undefined) {
    throw new InvalidQuotedExecutionError(
      `slice ${slice.sliceId} approves ${foreign.to}, not its source token`,
    );
  }
}

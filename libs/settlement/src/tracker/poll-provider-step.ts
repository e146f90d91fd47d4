import {
  type AnswerStep,
  type AttemptRecord,
  type AttemptSlice,
  evolveTracking,
  type FlatSlice,
  hashKey,
  interpretFill,
  interpretProviderAnswer,
  type LegProgress,
  legRefund,
  slicePlan,
  type TrackingState,
} from '@svc/domain';
import { type DepositSelector, type ProviderAdapter } from '@svc/providers';
import { type Hash } from 'viem';
import { readReceipt } from '@svc/chains';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { claimTransaction } from '../claims/claim-transaction';
import { readDelivery } from './read-delivery';
import { sliceProvider } from './slice-provider';
import { toProviderAnswer } from './to-provider-answer';
import { type TrackerDeps } from './tracker-deps';

/**
 * Polls one leg's provider and records what the answer means. A fill, a refund or another token delivered is read
 * from the chain before anything is recorded: the provider's word alone settles nothing the service can read.
 */
export async function pollProviderStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  flat: FlatSlice,
  work: { sourceTxHash: string | null; depositIndex: number | null; now: number },
): Promise<{ record: AttemptRecord; state: TrackingState }> {
  const { slice } = flat;
  const provider = sliceProvider(deps, slice);
  if (provider === null) return { record, state };
  const { adapter, context } = provider;
  const result = await adapter.status(context, {
    signal: AbortSignal.timeout(deps.providerTimeoutMs),
    sourceTxHash: work.sourceTxHash as Hash | null,
    deposit: await depositSelector(deps, adapter, slice, work),
  });
  const { step, schedule } = interpretProviderAnswer(record, state, slice.sliceId, toProviderAnswer(result), {
    now: work.now,
    traits: adapter.tracking,
    policy: deps.policy,
  });
  const next = evolveTracking(state, schedule);
  const progress = await resolveStep(deps, record, flat, step, work.now);
  if (progress === null) return { record, state: next };
  return { record: await observe(deps, record, slice.sliceId, progress, work.now), state: next };
}

/** Records one observation of a leg through the attempt decider. */
export async function observe(
  deps: TrackerDeps,
  record: AttemptRecord,
  sliceId: string,
  progress: LegProgress,
  now: number,
): Promise<AttemptRecord> {
  const after = await decideAndAppend(
    deps.store,
    record.prepared.attemptId,
    `leg:${sliceId}:${progress.state}`,
    { type: 'ObserveLeg', data: { sliceId, progress, now } },
  );
  return after ?? record;
}

/** Which of the provider's deposits in the source transaction is this leg's (a batch can hold several). */
async function depositSelector(
  deps: TrackerDeps,
  adapter: ProviderAdapter,
  slice: AttemptSlice,
  { sourceTxHash, depositIndex }: { sourceTxHash: string | null; depositIndex: number | null },
): Promise<DepositSelector | null> {
  if (sourceTxHash === null || depositIndex === null) return null;
  const key = hashKey(slice.sourceChainId, sourceTxHash);
  let logs = deps.receiptLogs.get(key);
  if (logs === undefined && deps.chains.has(slice.sourceChainId)) {
    const receipt = await readReceipt(deps.chains.client(slice.sourceChainId), {
      hash: sourceTxHash as Hash,
    });
    logs = receipt?.logs ?? [];
    if (receipt) deps.receiptLogs.set(key, logs);
  }
  return { index: depositIndex, ref: adapter.depositRefs(logs ?? [])[depositIndex] ?? null };
}

async function resolveStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  { leg, slice }: FlatSlice,
  step: AnswerStep,
  now: number,
): Promise<LegProgress | null> {
  const { recipient, wallet, attemptId } = record.prepared;
  switch (step.kind) {
    case 'none':
      return null;
    case 'observe':
      return step.progress;
    case 'read_fill': {
      const chainId = leg.target.chainId;
      const read =
        step.fillTxHash === null
          ? ({ basis: 'unreadable', reason: 'not_found' } as const)
          : await readDelivery(deps.chains, {
              chainId,
              txHash: step.fillTxHash,
              to: recipient,
              token: leg.target.address,
            });
      let claimedElsewhere = false;
      if (step.fillTxHash !== null && read.basis === 'exact' && BigInt(read.amount) > 0n) {
        const claim = { role: 'fill' as const, attemptId, sliceId: slice.sliceId };
        const owner = await claimTransaction(deps.store, {
          chainId,
          txHash: step.fillTxHash,
          claim,
          at: now,
        });
        claimedElsewhere = owner !== `fill:${attemptId}:${slice.sliceId}`;
      }
      return interpretFill({
        fillTxHash: step.fillTxHash,
        read,
        claimedElsewhere,
        providerAmount: step.providerAmount,
        expectedOutputRaw: slice.expectedOutputRaw,
      });
    }
    case 'read_other_delivery': {
      const chainId = leg.target.chainId;
      const found = await firstDelivery(deps, chainId, step.fillTxHash, step.token, [recipient, wallet]);
      return {
        state: 'destination_action_failed',
        destinationTxHash: step.fillTxHash,
        reason: 'the bridge filled, but its destination action failed: the target token was not delivered',
        refund: legRefund({
          chainId,
          token: step.token,
          txHash: step.fillTxHash,
          to: found.to,
          read: found.read,
        }),
      };
    }
    case 'read_refund': {
      const chainId = step.refundChainId ?? slice.sourceChainId;
      const token = slicePlan(record.prepared, slice.sliceId)?.preview?.sourceTokens[0]?.address ?? null;
      const found = await firstDelivery(deps, chainId, step.refundTxHash, token, [wallet]);
      return {
        state: 'refunded',
        refundTxHash: step.refundTxHash,
        reason: step.reason,
        refund: legRefund({
          chainId,
          token,
          txHash: step.refundTxHash,
          to: found.to ?? wallet,
          read: found.read,
        }),
      };
    }
  }
}

/** The first of `accounts` that received `token` in the transaction, with the exact amount read from the chain. */
async function firstDelivery(
  deps: TrackerDeps,
  chainId: number,
  txHash: string | null,
  token: string | null,
  accounts: string[],
): Promise<{ to: string | null; read: { basis: 'exact'; amount: string } | null }> {
  if (txHash === null || token === null) return { to: null, read: null };
  for (const to of accounts) {
    const read = await readDelivery(deps.chains, { chainId, txHash, to, token });
    if (read.basis === 'exact' && BigInt(read.amount) > 0n) return { to, read };
  }
  return { to: null, read: null };
}

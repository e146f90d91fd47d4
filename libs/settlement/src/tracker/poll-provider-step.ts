import {
  type AnswerStep,
  type AttemptRecord,
  evolveTracking,
  type FlatSlice,
  interpretProviderAnswer,
  type LegProgress,
  legRefund,
  slicePlan,
  type TrackingState,
} from '@svc/domain';
import { type DepositSelector } from '@svc/providers';
import { type Hash } from 'viem';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { legDeposit } from './leg-deposit';
import { legFinality } from './leg-finality';
import { readDelivery } from './read-delivery';
import { readFill } from './read-fill';
import { sliceProvider } from './slice-provider';
import { toProviderAnswer } from './to-provider-answer';
import { unreportedActionOutcome } from './unreported-action-outcome';
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
  const deposit = await legDeposit(deps, adapter, slice, work);
  const result = await adapter.status(context, {
    signal: AbortSignal.timeout(deps.providerTimeoutMs),
    sourceTxHash: work.sourceTxHash as Hash | null,
    deposit,
  });
  const { step, schedule } = interpretProviderAnswer(record, state, slice.sliceId, toProviderAnswer(result), {
    now: work.now,
    traits: adapter.tracking,
    policy: deps.policy,
  });
  const next = evolveTracking(state, schedule);
  const progress = await resolveStep(deps, record, flat, step, work.now, deposit);
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
  // A fill settles once final under the chains' confirmation policies (issue 24 item 3): read its finality.
  const finality =
    progress.state === 'filled'
      ? await legFinality(deps, record, sliceId, progress.destinationTxHash)
      : undefined;
  const after = await decideAndAppend(
    deps.store,
    record.prepared.attemptId,
    `leg:${sliceId}:${progress.state}`,
    { type: 'ObserveLeg', data: { sliceId, progress, now, ...(finality ? { finality } : {}) } },
  );
  return after ?? record;
}

async function resolveStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  { leg, slice }: FlatSlice,
  step: AnswerStep,
  now: number,
  deposit: DepositSelector | null,
): Promise<LegProgress | null> {
  const { recipient, wallet, attemptId } = record.prepared;
  switch (step.kind) {
    case 'none':
      return null;
    case 'observe':
      // The deposit's own fill deadline, from the answer or else the deposit event, sets how long the leg is
      // followed (issue 24 item 2): recorded with the leg's next pending status.
      if (step.progress.state === 'pending' && step.progress.fillDeadlineAt == null) {
        const fillDeadlineAt = deposit?.terms?.fillDeadlineAt ?? null;
        return fillDeadlineAt === null ? step.progress : { ...step.progress, fillDeadlineAt };
      }
      return step.progress;
    case 'read_fill': {
      // This leg's own deposit in the fill, by the provider's record of it, claimed per deposit (read-fill.ts).
      const read = await readFill(deps, {
        attemptId,
        sliceId: slice.sliceId,
        recipient,
        chainId: leg.target.chainId,
        token: leg.target.address,
        fillTxHash: step.fillTxHash,
        providerAmount: step.providerAmount,
        expectedOutputRaw: slice.expectedOutputRaw,
        provider: sliceProvider(deps, slice),
        deposit,
        now,
      });
      // A slow fill's destination action has no reported outcome (N13): none of the target token reached the
      // recipient, so read the bridged token where the handler drains it on failure, as for a reported failure.
      if (step.actionFallbackToken === undefined) return read;
      return unreportedActionOutcome(deps, read, {
        chainId: leg.target.chainId,
        fillTxHash: step.fillTxHash,
        token: step.actionFallbackToken,
        accounts: [recipient, wallet],
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
      // The refund's token: the one the provider named (relay refundCurrencyData, N10), else the one the deposit
      // itself refunds in (across: its input token, WETH for a native deposit, N7), else the slice's source token.
      const depositToken = chainId === slice.sourceChainId ? (deposit?.terms?.refundToken ?? null) : null;
      const token =
        step.refundToken ??
        depositToken ??
        slicePlan(record.prepared, slice.sliceId)?.preview?.sourceTokens[0]?.address ??
        null;
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

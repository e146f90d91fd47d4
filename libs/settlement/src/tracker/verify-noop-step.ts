import { readErc20Balance, readNativeBalance } from '@svc/chains';
import {
  type AttemptRecord,
  evolveTracking,
  type FlatSlice,
  interpretFill,
  type LegProgress,
  scheduleLeg,
  type TrackingState,
} from '@svc/domain';
import { type Address, zeroAddress } from 'viem';
import { observe } from './poll-provider-step';
import { readDelivery } from './read-delivery';
import { type TrackerDeps } from './tracker-deps';

/**
 * A no-op leg is never assumed delivered: its own transfer to the recipient is read from the source transaction, or,
 * when the recipient is the wallet (the tokens are already there), the recipient's balance is read after the evidence
 * and covers at most the leg's amount. That balance is labelled `estimated`, not `exact` (security review H2 residue
 * 3, ADR 0009): it is a read of the chain, but nothing in it is this attempt's own, and two open attempts of the
 * wallet read the very same balance.
 */
export async function verifyNoopStep(
  deps: TrackerDeps,
  record: AttemptRecord,
  state: TrackingState,
  { leg, slice }: FlatSlice,
  work: { chainId: number; txHash: string | null; now: number },
): Promise<{ record: AttemptRecord; state: TrackingState }> {
  const { recipient } = record.prepared;
  const token = leg.target.address;
  let progress: LegProgress | null;
  if (work.txHash !== null) {
    const read = await readDelivery(deps.chains, {
      chainId: work.chainId,
      txHash: work.txHash,
      to: recipient,
      token,
    });
    progress = interpretFill({
      fillTxHash: work.txHash,
      read,
      claimedElsewhere: false,
      providerAmount: null,
      expectedOutputRaw: slice.expectedOutputRaw,
      acceptEstimated: deps.acceptsEstimated === true,
    });
  } else {
    const client = deps.chains.client(work.chainId);
    const owner = recipient as Address;
    const balance =
      token.toLowerCase() === zeroAddress
        ? await readNativeBalance(client, { owner })
        : await readErc20Balance(client, { token: token as Address, owner });
    const expected = BigInt(slice.expectedOutputRaw);
    const held = balance < expected ? balance : expected;
    progress = {
      state: 'filled',
      destinationTxHash: null,
      settledAmount: held.toString(),
      amountBasis: 'estimated',
    };
  }
  const schedule = scheduleLeg(
    state,
    slice.sliceId,
    { now: work.now, changed: false, failed: false, minIntervalMs: 0 },
    deps.policy,
  );
  const next = evolveTracking(state, schedule);
  if (progress === null) return { record, state: next };
  return { record: await observe(deps, record, slice.sliceId, progress, work.now), state: next };
}

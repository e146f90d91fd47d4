import { type LegProgress, legRefund } from '@svc/domain';
import { readDelivery } from './read-delivery';
import { type TrackerDeps } from './tracker-deps';

/**
 * A fill whose destination actions have no reported outcome (Across `slowFilled`: the indexer sets `actionsSucceeded`
 * only for `filled`; providers review N13). When the fill gave the recipient none of the target token, the actions
 * failed and the MulticallHandler drained the bridged `token` to the fallback recipient (the recipient or the wallet,
 * as for a reported failure, D6): that is `destination_action_failed` with where it went. Otherwise, or when the
 * bridged token is not found there either, the fill read stands.
 */
export async function unreportedActionOutcome(
  deps: Pick<TrackerDeps, 'chains'>,
  read: LegProgress | null,
  fill: { chainId: number; fillTxHash: string | null; token: string; accounts: string[] },
): Promise<LegProgress | null> {
  if (!nothingDelivered(read) || fill.fillTxHash === null) return read;
  const { chainId, fillTxHash: txHash, token } = fill;
  for (const to of fill.accounts) {
    const found = await readDelivery(deps.chains, { chainId, txHash, to, token });
    if (found.basis !== 'exact' || BigInt(found.amount) === 0n) continue;
    return {
      state: 'destination_action_failed',
      destinationTxHash: txHash,
      reason:
        'the bridge filled (a slow fill), but its destination action failed: the target token was not delivered',
      refund: legRefund({ chainId, token, txHash, to, read: { basis: 'exact', amount: found.amount } }),
    };
  }
  return read;
}

/** The fill gave the recipient none of the target token: read exactly as 0, or rejected. */
function nothingDelivered(read: LegProgress | null): boolean {
  if (read === null) return false;
  if (read.state === 'filled') return read.amountBasis === 'exact' && BigInt(read.settledAmount) === 0n;
  return read.state === 'fill_rejected';
}

import { type LegRefund } from '@svc/contract';
import { type LegProgress } from '../attempt/attempt.commands';

/** What the destination chain says about a fill: the amount of the target token that reached the recipient. */
export type FillRead =
  | { basis: 'exact'; amount: string }
  /** not_found / not_mined: the node may lag, look again; reverted: the fill failed; untraceable: cannot tell. */
  | { basis: 'unreadable'; reason: 'not_found' | 'not_mined' | 'reverted' | 'untraceable' }
  /** The service is not configured to read this chain. */
  | { basis: 'chain_unreadable' };

/**
 * What a fill the provider named means for the leg, `settled` only when the destination chain shows the target token
 * reaching the recipient in a successful transaction no other leg has claimed. `estimated` (the provider's figure)
 * remains only where the chain cannot be read: a native payout a node without tracing cannot see, and a chain the
 * service does not read (not in CHAINS_FILE) only for a partner that accepts it (`acceptEstimated`, the partner
 * setting acceptEstimatedSettlement, default off; issue 24 item 5, security review H2 residue). Otherwise that fill is
 * rejected: the leg stays tracked and ends `settlement_timeout` at its deadline, the rejection in its history.
 * null: nothing to record yet (the node lags), look again.
 */
export function interpretFill(input: {
  fillTxHash: string | null;
  read: FillRead;
  /** The fill is already claimed by another leg or attempt. */
  claimedElsewhere: boolean;
  providerAmount: string | null;
  expectedOutputRaw: string;
  /** The partner accepts a fill on a chain the service does not read on the provider's word. Default: no. */
  acceptEstimated?: boolean;
}): LegProgress | null {
  const { fillTxHash: destinationTxHash, read } = input;
  const reject = (reason: string): LegProgress => ({ state: 'fill_rejected', destinationTxHash, reason });
  const unverifiable =
    read.basis === 'chain_unreadable' || (read.basis === 'unreadable' && read.reason === 'untraceable');
  // An estimated fill is claimed too (issue 24 N6): one fill hash never settles two legs, read or not.
  // First, whatever the read (security review H2: an estimated fill came before this check, and only the caller
  // kept a fill without a hash from settling on the provider's word).
  if (destinationTxHash === null) return reject('the provider named no fill transaction');
  if (unverifiable && input.claimedElsewhere) {
    return reject('the fill is already the delivery of another leg');
  }
  if (read.basis === 'chain_unreadable' && input.acceptEstimated !== true) {
    return reject(
      'the destination chain is not one this service reads (CHAINS_FILE): the provider says it filled, which alone never settles a leg unless the partner accepts estimated settlement',
    );
  }
  if (unverifiable) {
    return {
      state: 'filled',
      destinationTxHash,
      settledAmount: input.providerAmount ?? input.expectedOutputRaw,
      amountBasis: 'estimated',
    };
  }
  if (read.basis === 'unreadable') {
    return read.reason === 'reverted' ? reject('the fill transaction reverted') : null;
  }
  if (BigInt(read.amount) === 0n)
    return reject('the fill delivered none of the target token to the recipient');
  if (input.claimedElsewhere) return reject('the fill is already the delivery of another leg');
  return { state: 'filled', destinationTxHash, settledAmount: read.amount, amountBasis: 'exact' };
}

/** A refund (or another token delivered by a failed destination action) as the snapshot shows where it went. */
export function legRefund(input: {
  chainId: number | null;
  token: string | null;
  txHash: string | null;
  to: string | null;
  read: { basis: 'exact'; amount: string } | null;
  providerAmount?: string | null;
}): LegRefund {
  const amount = input.read?.amount ?? input.providerAmount ?? null;
  return {
    chainId: input.chainId,
    token: input.token,
    amount,
    amountBasis: input.read !== null ? 'exact' : amount !== null ? 'estimated' : null,
    txHash: input.txHash,
    to: input.to,
  };
}

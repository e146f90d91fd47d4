import { type Decider, storedEventShapes } from '@svc/contract';

/**
 * One claim per chain and transaction hash, kept in the event store: the first attempt (or, for a fill, the first
 * leg) to rely on a transaction owns it, and no other can use it as evidence. A source transaction is claimed by its
 * attempt (all of its legs may share it); a destination fill by one leg.
 */
export const transactionClaimStreamId = (chainId: number, txHash: string) =>
  `txclaim-${chainId}-${txHash.toLowerCase()}`;

export type ClaimRole =
  { role: 'source'; attemptId: string } | { role: 'fill'; attemptId: string; sliceId: string };

/** The owner as stored: `source:<attemptId>` or `fill:<attemptId>:<sliceId>`. */
export function claimOwner(claim: ClaimRole): string {
  return claim.role === 'source' ? `source:${claim.attemptId}` : `fill:${claim.attemptId}:${claim.sliceId}`;
}

/** The attempt a stored owner names. */
export function claimAttempt(owner: string): string {
  return owner.split(':')[1] ?? '';
}

export interface TransactionClaimedData {
  chainId: number;
  txHash: string;
  owner: string;
  at: number;
}

export type TransactionClaimEvent = { type: 'TransactionClaimed'; data: TransactionClaimedData };
export type ClaimTransaction = { type: 'ClaimTransaction'; data: TransactionClaimedData };
/** What a stored claim event must hold for the claim decider to fold it: a known type, plain data. */
export const transactionClaimEventShapes = storedEventShapes<TransactionClaimEvent>({
  TransactionClaimed: true,
});
/** Who holds the transaction (null: nobody yet). */
export type TransactionClaimState = { owner: string | null };

/**
 * The claim stream's decider: the first claim wins and is kept for good; a later claim, by its owner again or by
 * anyone else, decides nothing (the state says who holds it).
 */
export const transactionClaimDecider: Decider<
  TransactionClaimState,
  ClaimTransaction,
  TransactionClaimEvent
> = {
  name: 'transaction-claim',
  initialState: { owner: null },
  // A type this build does not know (a newer build's) claims nothing.
  evolve: (state, event) =>
    state.owner === null && event.type === 'TransactionClaimed' ? { owner: event.data.owner } : state,
  ...transactionClaimEventShapes,
  decide: (command, state) =>
    state.owner === null
      ? [{ type: 'TransactionClaimed', data: { ...command.data, txHash: command.data.txHash.toLowerCase() } }]
      : [],
};

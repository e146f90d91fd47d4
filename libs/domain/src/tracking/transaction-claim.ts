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

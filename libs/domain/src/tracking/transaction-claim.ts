import { type Decider, storedEventShapes } from '@svc/contract';

/**
 * One claim per chain and transaction hash, kept in the event store: the first attempt (or, for a fill, the first
 * leg) to rely on a transaction owns it, and no other can use it as evidence. A source transaction is claimed by its
 * attempt (all of its legs may share it); a destination fill by one leg.
 */
export const transactionClaimStreamId = (chainId: number, txHash: string) =>
  `txclaim-${chainId}-${txHash.toLowerCase()}`;

/**
 * One claim per (chain, fill transaction, deposit) (issue 24 item 1): a relayer's `multicall` or the CCTP finalizer's
 * batch fills several deposits in one transaction, each leg owns only its own deposit's delivery. `depositKey` is the
 * provider's identity of the deposit as its fill record names it (`FillRecordFinding.depositKey`), or `FALLBACK_DEPOSIT_KEY` when no
 * record names it and the transaction holds a single delivery to the recipient.
 */
export const fillClaimStreamId = (chainId: number, txHash: string, depositKey: string) =>
  `${transactionClaimStreamId(chainId, txHash)}-dep-${depositKey.toLowerCase()}`;

/**
 * The owner a per-deposit fill claim writes into the transaction's own claim stream (once, first come): the
 * transaction is a fill whose deliveries are claimed per deposit. A source claim then finds it taken (a fill is no
 * attempt's source), and a build from before per-deposit claims reads it as another leg's fill, so it never
 * settles a leg with the whole transaction's transfers (the N1 defect) once this build has attributed one.
 */
export const PER_DEPOSIT_FILLS_OWNER = 'fills';

export type ClaimRole =
  | { role: 'source'; attemptId: string }
  | { role: 'fill'; attemptId: string; sliceId: string }
  /** The transaction is a fill whose deliveries are claimed per deposit (`PER_DEPOSIT_FILLS_OWNER`). */
  | { role: 'fills' };

/** The owner as stored: `source:<attemptId>`, `fill:<attemptId>:<sliceId>` or `fills`. */
export function claimOwner(claim: ClaimRole): string {
  switch (claim.role) {
    case 'source':
      return `source:${claim.attemptId}`;
    case 'fill':
      return `fill:${claim.attemptId}:${claim.sliceId}`;
    case 'fills':
      return PER_DEPOSIT_FILLS_OWNER;
  }
}

/**
 * Whether a fill leg may take a per-deposit claim, given who holds the transaction's own claim stream after this
 * build wrote `PER_DEPOSIT_FILLS_OWNER` there (first come). `PER_DEPOSIT_FILLS_OWNER` or the leg's own legacy whole-tx
 * claim (an earlier build claimed it for this very leg): yes. A source claim (the transaction is an attempt's
 * source, not a provider's fill) or another leg's legacy whole-tx claim (an earlier build settled that leg with every
 * transfer of the transaction, ours included): no, the transaction is taken.
 */
export function fillClaimOpen(txOwner: string | null, claim: ClaimRole & { role: 'fill' }): boolean {
  return txOwner === null || txOwner === PER_DEPOSIT_FILLS_OWNER || txOwner === claimOwner(claim);
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

// The attribution of a fill to a deposit, whose key these claims take (kept beside them).
export * from './attribute-fill';

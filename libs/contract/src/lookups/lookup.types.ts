import { type AttemptStatus } from '../enums/attempt-status';
import { type API_VERSION } from '../errors/error-response';
import { type AttemptSnapshot } from '../attempt/attempt-snapshot.types';

/**
 * Body of POST /attempts/search as sent. At least one of walletAddress / recipient; every other filter narrows.
 * Times are ISO 8601; createdFrom is inclusive, createdTo exclusive.
 */
export interface AttemptSearchRequestBody {
  walletAddress?: string;
  recipient?: string;
  status?: AttemptStatus | AttemptStatus[];
  createdFrom?: string;
  createdTo?: string;
  limit?: number;
  cursor?: string;
}

/** Where the previous page ended: the last attempt it listed, in the search order (newest first). */
export interface SearchPosition {
  createdAt: number;
  attemptId: string;
}

/** A validated search: addresses lowercased, times in epoch ms, the limit defaulted, the cursor decoded. */
export interface AttemptSearchQuery {
  walletAddress: string | null;
  recipient: string | null;
  statuses: AttemptStatus[] | null;
  createdFrom: number | null;
  createdTo: number | null;
  limit: number;
  after: SearchPosition | null;
}

/** How an attempt knows a transaction: a source transaction the wallet reported, a leg's fill, or its refund. */
export type TransactionRole = 'source' | 'fill' | 'refund';

export const TRANSACTION_ROLES = ['source', 'fill', 'refund'] as const satisfies readonly TransactionRole[];

export interface AttemptTransactionRef {
  chainId: number;
  /** Lowercase, as indexed. */
  txHash: string;
  role: TransactionRole;
}

/** One attempt in a search page: enough to pick it; GET status gives the whole snapshot. */
export interface AttemptSummary {
  attemptId: string;
  intentSessionId: string;
  status: AttemptStatus;
  walletAddress: string;
  recipient: string;
  /** ISO 8601: when prepare created the attempt (the search order and the time-range filter). */
  createdAt: string;
  /** ISO 8601: the time of the attempt's latest recorded event. */
  updatedAt: string;
  transactions: AttemptTransactionRef[];
}

/** 200 of POST /attempts/search. */
export interface AttemptSearchResponse {
  apiVersion: typeof API_VERSION;
  attempts: AttemptSummary[];
  /** Pass it as `cursor` (with the same filters) for the next page; null on the last page. */
  nextCursor: string | null;
}

/** 200 of GET /transactions/{chainId}/{txHash}/attempt: the attempt's snapshot and how it knows the hash. */
export interface TransactionAttemptResponse extends AttemptSnapshot {
  matchedTransaction: AttemptTransactionRef;
  /** Other attempts of the partner that know the same hash (a hash reported twice), newest first; usually empty. */
  otherAttemptIds: string[];
}

import { type AttemptRecord } from './attempt-record';
import { minedAfterPrepare } from './observe-source-transaction';

/**
 * The attempts prepared for one wallet, whatever the partner (ADR 0009, security review N-M6): one stream per wallet,
 * one event per attempt, appended at prepare before the attempt's own stream. The deposit search reads it to learn
 * whether a transaction it found could be another open attempt's, since two attempts of a wallet may hand out
 * byte-identical calls (a no-op `transfer`, an `approve`).
 */
export const walletAttemptsStreamId = (wallet: string) => `walletattempts-${wallet.toLowerCase()}`;

/** How many of a wallet's latest attempts the search looks at (read backwards): a bound on its cost. */
export const WALLET_ATTEMPTS_SCANNED = 64;

export interface WalletAttemptRegisteredData {
  attemptId: string;
  preparedAt: number;
}

export type WalletAttemptEvent = { type: 'WalletAttemptRegistered'; data: WalletAttemptRegisteredData };

/** The stored event's data, or null for anything else (another build's type, malformed data). */
export function walletAttemptOf(event: { type: string; data: unknown }): WalletAttemptRegisteredData | null {
  if (event.type !== 'WalletAttemptRegistered') return null;
  const data = event.data as Partial<WalletAttemptRegisteredData> | null;
  return data !== null &&
    typeof data === 'object' &&
    typeof data.attemptId === 'string' &&
    typeof data.preparedAt === 'number'
    ? { attemptId: data.attemptId, preparedAt: data.preparedAt }
    : null;
}

/**
 * Whether `other` could still own a source transaction of `chainId` mined at `minedAt` (epoch ms), its calls aside
 * (the caller compares them): it has a chain action there, it is not ended (an ended attempt takes no evidence that
 * could settle it), and the transaction is not older than its prepare (the same rule as its own evidence).
 */
export function couldOwnSourceTransaction(
  other: AttemptRecord,
  tx: { chainId: number; minedAt: number },
): boolean {
  return (
    other.endedAt === null &&
    other.prepared.chainActions.some((a) => a.chainId === tx.chainId) &&
    minedAfterPrepare(other.prepared, tx.minedAt)
  );
}

/** An attempt as the claim of a reported transaction weighs it: whether the wallet signed it, when it reported it. */
export interface ClaimContender {
  attemptId: string;
  /** The wallet's authorization for this attempt is recorded (verified at `submitted`). */
  signed: boolean;
  /** When its partner first reported the transaction for it (epoch ms), null if it never did. */
  reportedAt: number | null;
}

/**
 * Whether `self`, whose partner reported the transaction, may claim it while `rivals` (other open attempts of the
 * wallet that could own it too, couldOwnSourceTransaction and equal calls) exist (ADR 0009). With no rival: yes, as
 * ever. With rivals the wallet's signature decides first: an attempt the wallet did not sign never takes a
 * transaction another attempt could own (a partner naming another user's transaction for its own attempt gains
 * nothing); then the earliest report, ties broken by attempt id. A rival that did not report it, or is not signed,
 * does not stand in the way. The answer never depends on which tracker reads first.
 */
export function mayClaimReported(self: ClaimContender, rivals: readonly ClaimContender[]): boolean {
  if (rivals.length === 0) return true;
  if (!self.signed || self.reportedAt === null) return false;
  const mine = self.reportedAt;
  return rivals.every(
    (r) =>
      !r.signed ||
      r.reportedAt === null ||
      r.reportedAt > mine ||
      (r.reportedAt === mine && r.attemptId > self.attemptId),
  );
}

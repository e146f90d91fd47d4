import {
  type AttemptRecord,
  attemptStreamId,
  type ClaimContender,
  couldOwnSourceTransaction,
  transactionClaimDecider,
  transactionClaimStreamId,
  WALLET_ATTEMPTS_SCANNED,
  walletAttemptOf,
  walletAttemptsStreamId,
} from '@svc/domain';
import { aggregateStream, eventIdFrom, type EventStore } from '@svc/event-store';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { type ExecutedCall, rivalOwners, type RivalCandidate } from '../observe/match-prepared-calls';

/**
 * Records that `attemptId` was prepared for `wallet` (ADR 0009), as PrepareAttemptService does before the attempt's
 * own stream (what the tests of the rule use). Idempotent: the event id derives from the attempt.
 */
export async function registerWalletAttempt(
  store: EventStore,
  { wallet, attemptId, preparedAt }: { wallet: string; attemptId: string; preparedAt: number },
): Promise<void> {
  const streamId = walletAttemptsStreamId(wallet);
  await store.append(
    streamId,
    [
      {
        id: eventIdFrom(streamId, attemptId),
        type: 'WalletAttemptRegistered',
        data: { attemptId, preparedAt },
      },
    ],
    { expectedRevision: 'any' },
  );
}

/**
 * The other open attempts of `wallet` that a source transaction found on chain (not reported for `selfId`) could
 * also be the execution of: same chain, prepared before it was mined, prepared calls equal to the executed ones. Reads
 * the wallet's latest WALLET_ATTEMPTS_SCANNED registrations and those attempts' streams.
 */
export async function findRivalOwners(
  store: EventStore,
  tx: { wallet: string; chainId: number; minedAt: number; executed: readonly ExecutedCall[]; selfId: string },
): Promise<string[]> {
  return (await findRivals(store, tx)).map((r) => r.prepared.attemptId);
}

/** findRivalOwners, with the rivals' folded records. */
export async function findRivals(
  store: EventStore,
  tx: { wallet: string; chainId: number; minedAt: number; executed: readonly ExecutedCall[]; selfId: string },
): Promise<AttemptRecord[]> {
  const registered = await store.readStream(walletAttemptsStreamId(tx.wallet), {
    direction: 'backwards',
    maxCount: WALLET_ATTEMPTS_SCANNED,
  });
  const candidates: RivalCandidate[] = [];
  const records = new Map<string, AttemptRecord>();
  for (const event of registered) {
    const entry = walletAttemptOf(event);
    if (entry === null || entry.attemptId === tx.selfId || records.has(entry.attemptId)) continue;
    const loaded = await loadAttempt(store, entry.attemptId, null);
    if (loaded === null || !couldOwnSourceTransaction(loaded.record, tx)) continue;
    const action = loaded.record.prepared.chainActions.find((a) => a.chainId === tx.chainId)!;
    candidates.push({ attemptId: entry.attemptId, preparedCalls: action.calls ?? action.transactions ?? [] });
    records.set(entry.attemptId, loaded.record);
  }
  return rivalOwners(tx.executed, tx.selfId, candidates).map((id) => records.get(id)!);
}

/**
 * An attempt as the claim of a reported transaction weighs it (mayClaimReported): whether the wallet's signature is
 * recorded, and when its partner first reported `txHash` on `chainId` (the first EvidenceReported naming it).
 */
export async function claimContender(
  store: EventStore,
  record: AttemptRecord,
  chainId: number,
  txHash: string,
): Promise<ClaimContender> {
  const hash = txHash.toLowerCase();
  let reportedAt: number | null = null;
  const reported = record.evidence.some((e) => e.chainId === chainId && e.txHashes.includes(hash));
  if (reported) {
    for (const event of await store.readStream(attemptStreamId(record.prepared.attemptId))) {
      if (event.type !== 'EvidenceReported') continue;
      const data = event.data as { reportedAt?: unknown; chainResults?: unknown };
      const results = Array.isArray(data.chainResults)
        ? (data.chainResults as { chainId?: unknown; txHashes?: unknown }[])
        : [];
      const names = results.some(
        (r) => r.chainId === chainId && Array.isArray(r.txHashes) && r.txHashes.includes(hash),
      );
      if (names && typeof data.reportedAt === 'number') {
        reportedAt = data.reportedAt;
        break;
      }
    }
  }
  return { attemptId: record.prepared.attemptId, signed: record.signature !== null, reportedAt };
}

/** Whether somebody already holds the transaction's claim (then reading it for another attempt only learns who). */
export async function claimHeld(store: EventStore, chainId: number, txHash: string): Promise<boolean> {
  const { state } = await aggregateStream(
    store,
    transactionClaimStreamId(chainId, txHash),
    transactionClaimDecider,
  );
  return state.owner !== null;
}

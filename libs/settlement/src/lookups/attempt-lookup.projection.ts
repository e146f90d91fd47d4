import {
  type AttemptStatus,
  type AttemptTransactionRef,
  isTerminalAttemptStatus,
  type TransactionRole,
} from '@svc/contract';
import { type AttemptEvent } from '@svc/domain';

/** What the lookups know of one attempt: its filters, and every transaction hash it knows (by chain). */
export interface AttemptLookupEntry {
  attemptId: string;
  intentSessionId: string;
  partnerId: string;
  /** As the quote named them. */
  walletAddress: string;
  recipient: string;
  status: AttemptStatus;
  /** Epoch ms: when prepare created the attempt. */
  createdAt: number;
  /** Epoch ms: the time of its latest event. */
  updatedAt: number;
  /** In order of first appearance; one entry per (chainId, txHash): the first role it was known by. */
  transactions: AttemptTransactionRef[];
  /** Per slice: the chain a fill lands on and the chain a refund defaults to. */
  slices: Record<string, { targetChainId: number; sourceChainId: number }>;
}

/**
 * Folds one attempt event into the lookup entry (pure: the projection's decider-style evolve). Before
 * AttemptPrepared there is nothing to index; terminal statuses never change, as in the attempt's own fold.
 */
export function evolveLookupEntry(
  entry: AttemptLookupEntry | null,
  event: AttemptEvent,
): AttemptLookupEntry | null {
  if (event.type === 'AttemptPrepared') {
    if (entry !== null) return entry;
    const d = event.data;
    const slices: AttemptLookupEntry['slices'] = {};
    for (const leg of d.legs)
      for (const s of leg.slices)
        slices[s.sliceId] = { targetChainId: leg.target.chainId, sourceChainId: s.sourceChainId };
    return {
      attemptId: d.attemptId,
      intentSessionId: d.intentSessionId,
      partnerId: d.partnerId,
      walletAddress: d.wallet,
      recipient: d.recipient,
      status: 'prepared',
      createdAt: d.preparedAt,
      updatedAt: d.preparedAt,
      transactions: [],
      slices,
    };
  }
  if (entry === null) return null;
  switch (event.type) {
    case 'EvidenceReported':
      return withTxs(
        touched(entry, event.data.reportedAt),
        event.data.chainResults.flatMap((r) => r.txHashes.map((h) => ref(r.chainId, h, 'source'))),
      );
    case 'SourceTransactionConfirmed':
    case 'SourceTransactionReverted':
    case 'SourceTransactionMismatched':
    case 'SourceTransactionUnknown':
      return withTxs(touched(entry, event.data.at), [ref(event.data.chainId, event.data.txHash, 'source')]);
    case 'LegSettled': {
      const chains = entry.slices[event.data.sliceId];
      const fill = event.data.destinationTxHash;
      return withTxs(
        touched(entry, event.data.at),
        chains && fill ? [ref(chains.targetChainId, fill, 'fill')] : [],
      );
    }
    case 'LegFailed': {
      const chains = entry.slices[event.data.sliceId];
      if (!chains) return touched(entry, event.data.at);
      const refundChain = event.data.refund?.chainId ?? chains.sourceChainId;
      const hashes = [
        event.data.destinationTxHash ? ref(chains.targetChainId, event.data.destinationTxHash, 'fill') : null,
        event.data.refundTxHash ? ref(refundChain, event.data.refundTxHash, 'refund') : null,
        event.data.refund?.txHash ? ref(refundChain, event.data.refund.txHash, 'refund') : null,
      ];
      return withTxs(
        touched(entry, event.data.at),
        hashes.filter((h) => h !== null),
      );
    }
    case 'AttemptWalletSubmitted':
      return moveTo(entry, 'wallet_submitted', event.data.at);
    case 'AttemptProviderPending':
      return moveTo(entry, 'provider_pending', event.data.at);
    case 'AttemptSettled':
      return moveTo(entry, 'settled', event.data.at);
    case 'AttemptFailed':
      return moveTo(entry, 'failed', event.data.at);
    case 'AttemptExpired':
      return moveTo(entry, 'expired', event.data.at);
    case 'AuthorizationSigned':
      return touched(entry, event.data.signedAt);
    case 'LegPending':
    case 'LegDelayed':
    case 'LegFillRejected':
    case 'LegOwed':
    case 'LegFillSeen':
    case 'LegFillReorged':
    case 'SourceTransactionReorged':
    case 'SettledFillVanished':
      // A fill is indexed once it settles (LegSettled), not while it awaits confirmations or after a reorganisation.
      return touched(entry, event.data.at);
    default:
      // An event type this version does not know (a newer writer): nothing to index.
      return entry;
  }
}

function ref(chainId: number, txHash: string, role: TransactionRole): AttemptTransactionRef {
  return { chainId, txHash: txHash.toLowerCase(), role };
}

function touched(entry: AttemptLookupEntry, at: number): AttemptLookupEntry {
  return at > entry.updatedAt ? { ...entry, updatedAt: at } : entry;
}

function moveTo(entry: AttemptLookupEntry, status: AttemptStatus, at: number): AttemptLookupEntry {
  return isTerminalAttemptStatus(entry.status) ? touched(entry, at) : { ...touched(entry, at), status };
}

function withTxs(entry: AttemptLookupEntry, added: AttemptTransactionRef[]): AttemptLookupEntry {
  const fresh = added.filter(
    (a, i) =>
      !entry.transactions.some((t) => t.chainId === a.chainId && t.txHash === a.txHash) &&
      added.findIndex((b) => b.chainId === a.chainId && b.txHash === a.txHash) === i,
  );
  return fresh.length === 0 ? entry : { ...entry, transactions: [...entry.transactions, ...fresh] };
}

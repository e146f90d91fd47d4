import { type AttemptSearchQuery, type SearchPosition } from '@svc/contract';
import { type AttemptEvent } from '@svc/domain';
import { type AttemptLookupEntry, evolveLookupEntry } from './attempt-lookup.projection';

/** A page of a search: the attempts, and where the next page starts (null on the last one). */
export interface LookupPage {
  entries: AttemptLookupEntry[];
  next: SearchPosition | null;
}

/**
 * The lookups' index, in memory: every attempt's entry, and per partner the attempts of each wallet, each recipient
 * and each (chain, transaction hash). Fed event by event in log order (`apply`); answers searches in a stable order
 * (newest first: createdAt, then attemptId, both descending) with keyset pages, so attempts created while a partner
 * pages through never shift or repeat the pages after the first. Everything is keyed by partner: another partner's
 * attempts are never candidates.
 */
export class AttemptLookupIndex {
  private readonly entries = new Map<string, AttemptLookupEntry>();
  private readonly byWallet = new Map<string, Set<string>>();
  private readonly byRecipient = new Map<string, Set<string>>();
  private readonly byTransaction = new Map<string, Set<string>>();

  get size(): number {
    return this.entries.size;
  }

  /**
   * One copy of each partner id, wallet and recipient, however many attempts name it (each event parsed from the
   * store brings its own copies): about 200 of the ~750 bytes an attempt would otherwise cost here.
   */
  private readonly strings = new Map<string, string>();

  apply(attemptId: string, event: AttemptEvent): void {
    const before = this.entries.get(attemptId) ?? null;
    let after = evolveLookupEntry(before, event);
    if (after === null || after === before) return;
    if (before === null)
      after = {
        ...after,
        attemptId: after.attemptId === attemptId ? attemptId : after.attemptId, // the key's copy, not a second one
        partnerId: this.intern(after.partnerId),
        walletAddress: this.intern(after.walletAddress),
        recipient: this.intern(after.recipient),
      };
    this.entries.set(attemptId, after);
    const partner = after.partnerId;
    if (before === null) {
      add(this.byWallet, key(partner, after.walletAddress.toLowerCase()), attemptId);
      add(this.byRecipient, key(partner, after.recipient.toLowerCase()), attemptId);
    }
    for (const tx of after.transactions.slice(before?.transactions.length ?? 0))
      add(this.byTransaction, key(partner, String(tx.chainId), tx.txHash), attemptId);
  }

  private intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  get(partnerId: string, attemptId: string): AttemptLookupEntry | null {
    const entry = this.entries.get(attemptId);
    return entry?.partnerId === partnerId ? entry : null;
  }

  search(partnerId: string, query: AttemptSearchQuery): LookupPage {
    const sets = [
      query.walletAddress === null ? null : this.byWallet.get(key(partnerId, query.walletAddress)),
      query.recipient === null ? null : this.byRecipient.get(key(partnerId, query.recipient)),
    ].filter((s) => s !== null);
    if (sets.some((s) => s === undefined)) return { entries: [], next: null };
    const [smallest] = (sets as Set<string>[]).sort((a, b) => a.size - b.size);
    if (smallest === undefined) return { entries: [], next: null };

    const matches: AttemptLookupEntry[] = [];
    for (const id of smallest) {
      const e = this.entries.get(id)!;
      if (query.walletAddress !== null && e.walletAddress.toLowerCase() !== query.walletAddress) continue;
      if (query.recipient !== null && e.recipient.toLowerCase() !== query.recipient) continue;
      if (query.statuses !== null && !query.statuses.includes(e.status)) continue;
      if (query.createdFrom !== null && e.createdAt < query.createdFrom) continue;
      if (query.createdTo !== null && e.createdAt >= query.createdTo) continue;
      if (query.after !== null && !isAfter(e, query.after)) continue;
      matches.push(e);
    }
    matches.sort(newestFirst);
    const entries = matches.slice(0, query.limit);
    const last = entries.at(-1);
    const next =
      matches.length > query.limit && last ? { createdAt: last.createdAt, attemptId: last.attemptId } : null;
    return { entries, next };
  }

  /** The partner's attempts that know this transaction, newest first. */
  byTransactionHash(partnerId: string, chainId: number, txHash: string): AttemptLookupEntry[] {
    const ids = this.byTransaction.get(key(partnerId, String(chainId), txHash.toLowerCase()));
    return ids ? [...ids].map((id) => this.entries.get(id)!).sort(newestFirst) : [];
  }
}

function key(...parts: string[]): string {
  return parts.join('\n');
}

function add(index: Map<string, Set<string>>, k: string, id: string): void {
  const set = index.get(k);
  if (set) set.add(id);
  else index.set(k, new Set([id]));
}

function newestFirst(a: AttemptLookupEntry, b: AttemptLookupEntry): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.attemptId < b.attemptId ? 1 : a.attemptId > b.attemptId ? -1 : 0;
}

/** Strictly after `position` in the search order (older, or as old with a smaller id). */
function isAfter(e: AttemptLookupEntry, position: SearchPosition): boolean {
  return (
    e.createdAt < position.createdAt ||
    (e.createdAt === position.createdAt && e.attemptId < position.attemptId)
  );
}

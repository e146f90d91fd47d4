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
  /** Per partner and wallet (recipient): its attempts in search order reversed (oldest first), for keyset pages. */
  private readonly byWallet = new Map<string, AttemptLookupEntry[]>();
  private readonly byRecipient = new Map<string, AttemptLookupEntry[]>();
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
      insertOrdered(this.byWallet, key(partner, after.walletAddress.toLowerCase()), after);
      insertOrdered(this.byRecipient, key(partner, after.recipient.toLowerCase()), after);
    } else {
      // The lists hold entries: put the new version where the old one was (createdAt never changes).
      replaceOrdered(this.byWallet.get(key(partner, after.walletAddress.toLowerCase())), before, after);
      replaceOrdered(this.byRecipient.get(key(partner, after.recipient.toLowerCase())), before, after);
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

  /**
   * Walks the smaller of the wallet and recipient lists from the newest attempt (or from just before the cursor, or
   * before createdTo, found by binary search) and stops once a page and one more have matched or createdFrom is
   * passed: a page costs what it reads, not what the wallet has ever done.
   */
  search(partnerId: string, query: AttemptSearchQuery): LookupPage {
    const lists = [
      query.walletAddress === null ? null : this.byWallet.get(key(partnerId, query.walletAddress)),
      query.recipient === null ? null : this.byRecipient.get(key(partnerId, query.recipient)),
    ].filter((l) => l !== null);
    if (lists.some((l) => l === undefined)) return { entries: [], next: null };
    const [smallest] = (lists as AttemptLookupEntry[][]).sort((a, b) => a.length - b.length);
    if (smallest === undefined) return { entries: [], next: null };

    let from = smallest.length - 1;
    if (query.after !== null) from = Math.min(from, countBefore(smallest, query.after) - 1);
    if (query.createdTo !== null)
      from = Math.min(from, countBefore(smallest, { createdAt: query.createdTo, attemptId: '' }) - 1);
    const matches: AttemptLookupEntry[] = [];
    for (let i = from; i >= 0 && matches.length <= query.limit; i--) {
      const e = smallest[i];
      if (query.createdFrom !== null && e.createdAt < query.createdFrom) break;
      if (query.walletAddress !== null && e.walletAddress.toLowerCase() !== query.walletAddress) continue;
      if (query.recipient !== null && e.recipient.toLowerCase() !== query.recipient) continue;
      if (query.statuses !== null && !query.statuses.includes(e.status)) continue;
      matches.push(e);
    }
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

/** Ascending search position: older first, then the smaller id. */
function compareOldestFirst(a: SearchPosition, b: SearchPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.attemptId < b.attemptId ? -1 : a.attemptId > b.attemptId ? 1 : 0;
}

/** How many entries of the ascending list come strictly before `position` (binary search). */
function countBefore(list: readonly SearchPosition[], position: SearchPosition): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareOldestFirst(list[mid], position) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Appends in order; attempts arrive mostly oldest first, so the search from the end is short. */
function insertOrdered(index: Map<string, AttemptLookupEntry[]>, k: string, entry: AttemptLookupEntry): void {
  const list = index.get(k);
  if (!list) {
    index.set(k, [entry]);
    return;
  }
  let at = list.length;
  while (at > 0 && compareOldestFirst(list[at - 1], entry) > 0) at--;
  list.splice(at, 0, entry);
}

function replaceOrdered(
  list: AttemptLookupEntry[] | undefined,
  before: AttemptLookupEntry,
  after: AttemptLookupEntry,
): void {
  if (!list) return;
  const at = countBefore(list, before);
  if (list[at] === before) list[at] = after;
}

import { type AttemptSearchQuery, type SearchPosition } from '@svc/contract';
import { type AttemptEvent } from '@svc/domain';
import { type ReadModelDb } from '@svc/event-store';
import { type AttemptLookupEntry, evolveLookupEntry } from './attempt-lookup.projection';

/** A page of a search: the attempts, and where the next page starts (null on the last one). */
export interface LookupPage {
  entries: AttemptLookupEntry[];
  next: SearchPosition | null;
}

/** The tables' version: a change of their shape is a new version (new tables, projected again from the log). */
export const LOOKUP_TABLES_VERSION = 1;
const ATTEMPTS = `lookup_attempts_v${LOOKUP_TABLES_VERSION}`;
const TRANSACTIONS = `lookup_transactions_v${LOOKUP_TABLES_VERSION}`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${ATTEMPTS} (
  attempt_id    TEXT    PRIMARY KEY,
  partner_id    TEXT    NOT NULL,
  wallet_key    TEXT    NOT NULL,
  recipient_key TEXT    NOT NULL,
  created_at    INTEGER NOT NULL,
  status        TEXT    NOT NULL,
  entry         TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS ${ATTEMPTS}_wallet ON ${ATTEMPTS} (partner_id, wallet_key, created_at, attempt_id);
CREATE INDEX IF NOT EXISTS ${ATTEMPTS}_recipient ON ${ATTEMPTS} (partner_id, recipient_key, created_at, attempt_id);
CREATE TABLE IF NOT EXISTS ${TRANSACTIONS} (
  partner_id TEXT    NOT NULL,
  chain_id   INTEGER NOT NULL,
  tx_hash    TEXT    NOT NULL,
  attempt_id TEXT    NOT NULL,
  PRIMARY KEY (partner_id, chain_id, tx_hash, attempt_id)
) WITHOUT ROWID;
`;

const ORDER = 'ORDER BY created_at DESC, attempt_id DESC';

/** An attempt's entry during a page: as its row holds it (null: no row yet), and as folded so far. */
interface PendingEntry {
  stored: AttemptLookupEntry | null;
  current: AttemptLookupEntry | null;
}

/**
 * The lookups' index, in tables of the read-model database (not in the heap): one row per attempt with its filters
 * and its entry, indexed per partner by wallet and by recipient in search order, and one row per (partner, chain,
 * transaction hash, attempt). Fed event by event in log order (`apply`, from the projection); answers searches in a
 * stable order (newest first: createdAt, then attemptId, both descending) with keyset pages, so attempts created
 * while a partner pages through never shift or repeat the pages after the first. Everything is keyed by partner:
 * another partner's attempts are never candidates. A page costs an index seek and the rows it reads.
 */
export class AttemptLookupIndex {
  private readonly select;
  private readonly insert;
  private readonly update;
  private readonly insertTransaction;
  private readonly byTransaction;
  private readonly count;
  private readonly searches = new Map<string, ReturnType<ReadModelDb['prepare']>>();

  constructor(private readonly db: ReadModelDb) {
    AttemptLookupIndex.init(db);
    this.select = db.prepare<[string], { entry: string }>(
      `SELECT entry FROM ${ATTEMPTS} WHERE attempt_id = ?`,
    );
    this.insert = db.prepare(
      `INSERT INTO ${ATTEMPTS} (attempt_id, partner_id, wallet_key, recipient_key, created_at, status, entry)
       VALUES (@attemptId, @partnerId, @walletKey, @recipientKey, @createdAt, @status, @entry)`,
    );
    this.update = db.prepare(
      `UPDATE ${ATTEMPTS} SET status = @status, entry = @entry WHERE attempt_id = @attemptId`,
    );
    this.insertTransaction = db.prepare(
      `INSERT OR IGNORE INTO ${TRANSACTIONS} (partner_id, chain_id, tx_hash, attempt_id) VALUES (?, ?, ?, ?)`,
    );
    this.byTransaction = db.prepare<[string, number, string], { entry: string }>(
      `SELECT a.entry FROM ${TRANSACTIONS} t JOIN ${ATTEMPTS} a ON a.attempt_id = t.attempt_id
       WHERE t.partner_id = ? AND t.chain_id = ? AND t.tx_hash = ? ORDER BY a.created_at DESC, a.attempt_id DESC`,
    );
    this.count = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${ATTEMPTS}`);
  }

  /** Creates the tables if missing. */
  static init(db: ReadModelDb): void {
    db.exec(SCHEMA);
  }

  /** Empties the tables. */
  static truncate(db: ReadModelDb): void {
    db.exec(`DELETE FROM ${ATTEMPTS}; DELETE FROM ${TRANSACTIONS};`);
  }

  get size(): number {
    return this.count.get()?.n ?? 0;
  }

  /** Folds one event of the attempt's stream into its row (in log order). */
  apply(attemptId: string, event: AttemptEvent): void {
    const page = new Map<string, unknown>();
    this.evolve(attemptId, event, page);
    this.flush(page);
  }

  /**
   * Folds one event into the attempt's entry as `page` holds it (read from its row the first time in a page), and
   * keeps the result there: `flush` writes each attempt changed in the page once.
   */
  evolve(attemptId: string, event: AttemptEvent, page: Map<string, unknown>): void {
    let pending = page.get(attemptId) as PendingEntry | undefined;
    if (pending === undefined) {
      const row = this.select.get(attemptId);
      const stored = row === undefined ? null : (JSON.parse(row.entry) as AttemptLookupEntry);
      pending = { stored, current: stored };
    }
    const after = evolveLookupEntry(pending.current, event);
    if (after === null || after === pending.current) return;
    page.set(attemptId, { stored: pending.stored, current: after });
  }

  /** Writes the entries `evolve` changed in `page`, and the transactions they came to know. */
  flush(page: Map<string, unknown>): void {
    for (const [attemptId, value] of page) {
      const { stored, current } = value as PendingEntry;
      if (current === null || current === stored) continue;
      const entry = JSON.stringify(current);
      if (stored === null)
        this.insert.run({
          attemptId,
          partnerId: current.partnerId,
          walletKey: current.walletAddress.toLowerCase(),
          recipientKey: current.recipient.toLowerCase(),
          createdAt: current.createdAt,
          status: current.status,
          entry,
        });
      else this.update.run({ attemptId, status: current.status, entry });
      for (const tx of current.transactions.slice(stored?.transactions.length ?? 0))
        this.insertTransaction.run(current.partnerId, tx.chainId, tx.txHash, attemptId);
    }
  }

  get(partnerId: string, attemptId: string): AttemptLookupEntry | null {
    const row = this.select.get(attemptId);
    if (row === undefined) return null;
    const entry = JSON.parse(row.entry) as AttemptLookupEntry;
    return entry.partnerId === partnerId ? entry : null;
  }

  /**
   * The partner's attempts matching the query, newest first, after the cursor: one keyset read of the wallet's (or
   * the recipient's) index that stops after a page and one more match.
   */
  search(partnerId: string, query: AttemptSearchQuery): LookupPage {
    if (query.walletAddress === null && query.recipient === null) return { entries: [], next: null };
    const where = ['partner_id = @partnerId'];
    const parameters: Record<string, string | number> = { partnerId, limit: query.limit + 1 };
    if (query.walletAddress !== null) {
      where.push('wallet_key = @wallet');
      parameters['wallet'] = query.walletAddress.toLowerCase();
    }
    if (query.recipient !== null) {
      where.push('recipient_key = @recipient');
      parameters['recipient'] = query.recipient.toLowerCase();
    }
    if (query.statuses !== null) {
      where.push(`status IN (${query.statuses.map((_, i) => `@s${i}`).join(', ')})`);
      query.statuses.forEach((status, i) => (parameters[`s${i}`] = status));
    }
    if (query.createdFrom !== null) {
      where.push('created_at >= @createdFrom');
      parameters['createdFrom'] = query.createdFrom;
    }
    if (query.createdTo !== null) {
      where.push('created_at < @createdTo');
      parameters['createdTo'] = query.createdTo;
    }
    if (query.after !== null) {
      where.push('(created_at, attempt_id) < (@afterCreatedAt, @afterAttemptId)');
      parameters['afterCreatedAt'] = query.after.createdAt;
      parameters['afterAttemptId'] = query.after.attemptId;
    }
    const sql = `SELECT entry FROM ${ATTEMPTS} WHERE ${where.join(' AND ')} ${ORDER} LIMIT @limit`;
    let statement = this.searches.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.searches.set(sql, statement);
    }
    const matches = (statement.all(parameters) as { entry: string }[]).map(
      (r) => JSON.parse(r.entry) as AttemptLookupEntry,
    );
    const entries = matches.slice(0, query.limit);
    const last = entries.at(-1);
    const next =
      matches.length > query.limit && last ? { createdAt: last.createdAt, attemptId: last.attemptId } : null;
    return { entries, next };
  }

  /** The partner's attempts that know this transaction, newest first. */
  byTransactionHash(partnerId: string, chainId: number, txHash: string): AttemptLookupEntry[] {
    return this.byTransaction
      .all(partnerId, chainId, txHash.toLowerCase())
      .map((r) => JSON.parse(r.entry) as AttemptLookupEntry);
  }
}

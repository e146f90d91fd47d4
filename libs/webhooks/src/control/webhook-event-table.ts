import { WEBHOOK_STREAM_PREFIX, type WebhookStreamEvent, webhookStreamEventShapes } from '@svc/domain';
import {
  comparePositions,
  isRecord,
  perReadModelDb,
  type Position,
  projection,
  type ReadModelDb,
  type StreamEvent,
} from '@svc/event-store';
import {
  type AttemptsPage,
  type IndexedEvent,
  type QueuedAt,
  type QueuedPage,
  queuedWebhooksOf,
} from './webhook-queued';

/** The tables' version: a change of their shape is a new version (new tables, projected again from the log). */
export const WEBHOOK_TABLES_VERSION = 1;
const QUEUED = `webhook_queued_v${WEBHOOK_TABLES_VERSION}`;
const WEBHOOK_EVENTS_PROJECTION = 'webhook-events';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${QUEUED} (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  partner_id   TEXT    NOT NULL,
  event_id     TEXT    NOT NULL,
  attempt_id   TEXT    NOT NULL,
  occurred_at  INTEGER,
  position     TEXT    NOT NULL,
  position_key TEXT    NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS ${QUEUED}_partner ON ${QUEUED} (partner_id, position_key);
CREATE INDEX IF NOT EXISTS ${QUEUED}_event ON ${QUEUED} (partner_id, event_id, seq);
CREATE INDEX IF NOT EXISTS ${QUEUED}_time ON ${QUEUED} (partner_id, occurred_at, position_key)
  WHERE occurred_at IS NOT NULL;
`;

/**
 * A position as text that sorts as the position does (each `:`-separated part zero-padded to 20 digits, the width of
 * an unsigned 64-bit number): what the tables order and compare by.
 */
export function positionKey(position: Position): string {
  comparePositions(position, position); // throws InvalidPositionError for anything that is not a position
  return position
    .split(':')
    .map((part) => part.padStart(20, '0'))
    .join(':');
}

type Row = {
  attempt_id: string;
  event_id: string;
  occurred_at: number | null;
  position: string;
  seq: number;
  position_key: string;
};

/**
 * The control plane's index of the `webhook-` streams, in a table of the read-model database (not in the heap): one
 * row per WebhookQueued, with its partner, event, attempt, occurrence time and log position, indexed per partner by
 * log position, by event id and by occurrence time. Answers a page in O(log n + page), a redelivery's attempt in
 * O(log n) and a page of a recovery range in O(log n + events read), whatever other partners have stored. A page
 * reads on after the partner's last event it listed (security review N-L2: never after a log position of others').
 */
export class WebhookEventTable {
  private readonly insert;
  private readonly pageAfter;
  private readonly pageFromStart;
  private readonly lastUpTo;
  private readonly lastOfEvent;
  private readonly byEvent;
  private readonly count;
  private readonly ranges = new Map<string, ReturnType<ReadModelDb['prepare']>>();

  private readonly checkpoint;

  constructor(private readonly db: ReadModelDb) {
    WebhookEventTable.init(db);
    // How far the log was read: the projection's checkpoint, in the same database (the runner's table).
    this.checkpoint = db.prepare<[string, number], { position: string | null }>(
      'SELECT position FROM projection_checkpoints WHERE projection = ? AND version = ?',
    );
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO ${QUEUED} (partner_id, event_id, attempt_id, occurred_at, position, position_key)
       VALUES (@partnerId, @eventId, @attemptId, @occurredAt, @position, @key)`,
    );
    const page = (after: string) =>
      db.prepare<Record<string, string | number>, Row>(
        `SELECT attempt_id, event_id, occurred_at, position, seq FROM ${QUEUED}
         WHERE partner_id = @partnerId ${after} ORDER BY position_key LIMIT @limit`,
      );
    this.pageAfter = page('AND position_key > @after');
    this.pageFromStart = page('');
    this.lastUpTo = db.prepare<[string, string], { event_id: string }>(
      `SELECT event_id FROM ${QUEUED} WHERE partner_id = ? AND position_key <= ?
       ORDER BY position_key DESC LIMIT 1`,
    );
    this.lastOfEvent = db.prepare<[string, string], { position: string }>(
      `SELECT position FROM ${QUEUED} WHERE partner_id = ? AND event_id = ? ORDER BY position_key DESC LIMIT 1`,
    );
    this.byEvent = db.prepare<[string, string], { attempt_id: string }>(
      `SELECT attempt_id FROM ${QUEUED} WHERE partner_id = ? AND event_id = ? ORDER BY seq LIMIT 1`,
    );
    this.count = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${QUEUED}`);
  }

  static init(db: ReadModelDb): void {
    db.exec(SCHEMA);
  }

  static truncate(db: ReadModelDb): void {
    db.exec(`DELETE FROM ${QUEUED}`);
  }

  /**
   * Records the queued events the event stands for (in log order): a WebhookQueued, or those a history summary kept
   * (each at its WebhookQueued's position, so after a compaction the rows stay where they were, and a table projected
   * again from the truncated stream gets them back in place). One already recorded at its position is ignored.
   */
  apply(event: IndexedEvent): void {
    for (const queued of queuedWebhooksOf(event))
      this.insert.run({ ...queued, key: positionKey(queued.position) });
  }

  /**
   * How far the log was read: every `webhook-` event at or before it is in the table (the projection's checkpoint;
   * undefined: nothing read yet).
   */
  get lastPosition(): Position | undefined {
    return this.checkpoint.get(WEBHOOK_EVENTS_PROJECTION, WEBHOOK_TABLES_VERSION)?.position ?? undefined;
  }

  /** How many queued events the table holds (all partners). */
  get size(): number {
    return this.count.get()?.n ?? 0;
  }

  /**
   * Up to `pageSize` of the partner's queued events after `after` (from the start when undefined), oldest first, and
   * the partner's event the next page reads on after: the last of this page, or on an empty page the partner's last
   * event at or before `after` (null: none, the next page starts at the beginning). Named by the partner's own event,
   * never by how far the log was read, so it moves only with the partner's own events (security review N-L2); every
   * event of the partner up to the log's checkpoint is in the table, so reading on after its last one misses none.
   */
  page(partnerId: string, after: Position | undefined, pageSize: number): QueuedPage {
    const limit = pageSize + 1;
    const rows =
      after === undefined
        ? this.pageFromStart.all({ partnerId, limit })
        : this.pageAfter.all({ partnerId, after: positionKey(after), limit });
    const found = rows.slice(0, pageSize).map((r) => ({ attemptId: r.attempt_id, eventId: r.event_id }));
    const lastEventId =
      found.at(-1)?.eventId ??
      (after === undefined ? null : (this.lastUpTo.get(partnerId, positionKey(after))?.event_id ?? null));
    return { found, hasMore: rows.length > pageSize, lastEventId };
  }

  /**
   * Where the partner's event `eventId` stands in the log (its last row, should it have been queued twice), or null
   * when the partner has no such event: what a cursor naming it reads on after.
   */
  positionOf(partnerId: string, eventId: string): Position | null {
    return this.lastOfEvent.get(partnerId, eventId)?.position ?? null;
  }

  /** The attempt whose webhook stream first queued `eventId` for this partner, or null. */
  attemptOf(partnerId: string, eventId: string): string | null {
    return this.byEvent.get(partnerId, eventId)?.attempt_id ?? null;
  }

  /**
   * One page of the partner's attempts with a queued event that occurred in [from, to).
   *
   * The range's events are taken in the table's time order, (occurredAt, log position), which is total: strictly
   * after `after` (from `from` when undefined) and only those at or before the log position `asOf` (all when
   * undefined). The page is the longest run of them that names at most `limit` attempts (default: no limit), so it
   * stops right before the first event of a (limit + 1)-th attempt. `attempts`: each once, in the log order of its
   * first event in the page. `next`: the page's last event when the range has events after it, else undefined.
   *
   * Pages read one after another, each from the previous `next`, with one `asOf` throughout, take each event of the
   * range queued at or before `asOf` exactly once, in order; events queued later never shift them (they are after
   * `asOf`), so a page read again with the same arguments is the same page. An attempt with events on several
   * pages is named on each. O(log n + events read).
   */
  attemptsQueuedBetween(
    partnerId: string,
    from: number,
    to: number,
    page: { limit?: number; after?: QueuedAt; asOf?: Position } = {},
  ): AttemptsPage {
    const { limit = Number.POSITIVE_INFINITY, after, asOf } = page;
    if (!(limit >= 1)) throw new RangeError(`a page names at least one attempt, not ${limit}`);
    const where = [
      'partner_id = @partnerId',
      'occurred_at IS NOT NULL',
      'occurred_at >= @from',
      'occurred_at < @to',
    ];
    const parameters: Record<string, string | number> = { partnerId, from, to };
    if (after !== undefined) {
      where.push('(occurred_at, position_key) > (@afterAt, @afterKey)');
      parameters['afterAt'] = after.occurredAt;
      parameters['afterKey'] = positionKey(after.position);
    }
    if (asOf !== undefined) {
      where.push('position_key <= @asOf');
      parameters['asOf'] = positionKey(asOf);
    }
    const sql = `SELECT attempt_id, event_id, occurred_at, position, seq, position_key FROM ${QUEUED}
      WHERE ${where.join(' AND ')} ORDER BY occurred_at, position_key`;
    let statement = this.ranges.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.ranges.set(sql, statement);
    }
    // Each attempt's first event in log order (its position; a row a history summary restored keeps its place).
    const earliest = new Map<string, string>();
    let last: Row | undefined;
    let more = false;
    for (const row of statement.iterate(parameters) as Iterable<Row>) {
      const known = earliest.get(row.attempt_id);
      if (known === undefined && earliest.size >= limit) {
        more = true;
        break;
      }
      if (known === undefined || known > row.position_key) earliest.set(row.attempt_id, row.position_key);
      last = row;
    }
    return {
      attempts: [...earliest]
        .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
        .map(([attemptId]) => attemptId),
      next:
        more && last !== undefined ? { occurredAt: last.occurred_at!, position: last.position } : undefined,
    };
  }
}

const WEBHOOK_EVENT_TYPES = [
  'WebhookQueued',
  'WebhookAttempted',
  'WebhookDelivered',
  'WebhookAbandoned',
  'WebhookRedeliveryRequested',
  'WebhookRetryRequested',
  'WebhookHistoryCompacted',
] as const satisfies readonly WebhookStreamEvent['type'][];

/** The table of a read-model database (one per database: its prepared statements). */
export const webhookEventTableOf = perReadModelDb((db) => new WebhookEventTable(db));

/**
 * The control plane's index as a projection: every `webhook-` stream, WebhookQueued events (and the events a history
 * summary kept) recorded in the WebhookEventTable. The other webhook events are read and left (known types; a type of
 * a newer build is skipped).
 */
export const webhookEventsProjection = projection<WebhookStreamEvent>({
  name: WEBHOOK_EVENTS_PROJECTION,
  version: WEBHOOK_TABLES_VERSION,
  streamPrefixes: [WEBHOOK_STREAM_PREFIX],
  eventTypes: WEBHOOK_EVENT_TYPES,
  isEvent: (event: StreamEvent): event is WebhookStreamEvent =>
    isRecord(event.data) &&
    (event.type === 'WebhookHistoryCompacted'
      ? webhookStreamEventShapes.isEvent(event)
      : event.type !== 'WebhookQueued' ||
        (typeof event.data['partnerId'] === 'string' &&
          typeof event.data['attemptId'] === 'string' &&
          typeof event.data['eventId'] === 'string')),
  init: (db) => WebhookEventTable.init(db),
  truncate: (db) => WebhookEventTable.truncate(db),
  evolve: (db, event) => {
    if (event.type !== 'WebhookQueued' && event.type !== 'WebhookHistoryCompacted') return;
    webhookEventTableOf(db).apply({
      type: event.type,
      data: { ...event.data },
      position: event.position,
    });
  },
});

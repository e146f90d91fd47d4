import { comparePositions, type Position } from '@svc/event-store';

/** What the index keeps of one event of a `webhook-` stream (its type, data and global position). */
export interface IndexedEvent {
  type: string;
  data: Record<string, unknown>;
  position: Position;
}

/** One WebhookQueued of a partner, as the control plane finds it. */
export interface QueuedWebhook {
  eventId: string;
  attemptId: string;
  /** Epoch ms the lifecycle event occurred (what recover ranges select on); null when the event has none. */
  occurredAt: number | null;
  /** Its global position. */
  position: Position;
  /** The position of the `webhook-` event just before it in the log (undefined: it is the first). */
  before: Position | undefined;
  /** Its rank among the partner's queued events (log order). */
  rank: number;
}

/** One page of a partner's queued events after a position, and where the next page reads on from. */
export interface QueuedPage {
  found: { attemptId: string; eventId: string }[];
  hasMore: boolean;
  /** The cursor's position: the last `webhook-` event a scan of the log would have read for this page. */
  position: Position | undefined;
}

/** A queued event's place in the index's time order: when it occurred, then its log position. */
export interface QueuedAt {
  occurredAt: number;
  position: Position;
}

/** One page of attemptsQueuedBetween: its attempts, and where the next page reads on from (none: the range is done). */
export interface AttemptsPage {
  attempts: string[];
  next: QueuedAt | undefined;
}

/** The partner's WebhookQueued in `event`, or null (pure: what the index records of one event of the log). */
export function queuedWebhookOf(
  event: IndexedEvent,
): { partnerId: string; eventId: string; attemptId: string; occurredAt: number | null } | null {
  if (event.type !== 'WebhookQueued') return null;
  const { partnerId, attemptId, eventId, occurredAt } = event.data;
  if (typeof partnerId !== 'string' || typeof attemptId !== 'string' || typeof eventId !== 'string')
    return null;
  const at = typeof occurredAt === 'number' && !Number.isNaN(occurredAt) ? occurredAt : null;
  return { partnerId, eventId, attemptId, occurredAt: at };
}

interface PartnerEvents {
  /** In log order (so in position order). */
  queued: QueuedWebhook[];
  /** The same events that have an occurredAt, ordered by it (ties in log order). */
  byTime: QueuedWebhook[];
  /** eventId -> attemptId of its first WebhookQueued. */
  attempts: Map<string, string>;
}

/**
 * The control plane's index of the `webhook-` streams, per partner: every WebhookQueued in queue order (the global
 * log's), by event id, and by occurrence time. Fed every `webhook-` event in log order (`apply`); it keeps nothing of
 * the other events but the last position. Answers a page in O(log n + page), a redelivery's attempt in O(1) and a
 * page of a recovery range in O(log n + page), whatever other partners have stored.
 */
export class WebhookEventIndex {
  private readonly partners = new Map<string, PartnerEvents>();
  private last: Position | undefined;

  /** The position of the last `webhook-` event applied. */
  get lastPosition(): Position | undefined {
    return this.last;
  }

  /** Folds the next `webhook-` event of the log in (one already applied, at or before the last position: ignored). */
  apply(event: IndexedEvent): void {
    if (this.last !== undefined && comparePositions(event.position, this.last) <= 0) return;
    const before = this.last;
    this.last = event.position;
    const queued = queuedWebhookOf(event);
    if (queued === null) return;
    let partner = this.partners.get(queued.partnerId);
    if (!partner) {
      partner = { queued: [], byTime: [], attempts: new Map() };
      this.partners.set(queued.partnerId, partner);
    }
    const entry: QueuedWebhook = {
      eventId: queued.eventId,
      attemptId: queued.attemptId,
      occurredAt: queued.occurredAt,
      position: event.position,
      before,
      rank: partner.queued.length,
    };
    partner.queued.push(entry);
    if (!partner.attempts.has(entry.eventId)) partner.attempts.set(entry.eventId, entry.attemptId);
    if (entry.occurredAt !== null) insertByTime(partner.byTime, entry);
  }

  /**
   * Up to `pageSize` of the partner's queued events after `after` (from the start when undefined), oldest first, and
   * the position a scan of every `webhook-` event would have stopped at: just before the first event left for the
   * next page, or the log's last `webhook-` event when none is left (never before `after`).
   */
  page(partnerId: string, after: Position | undefined, pageSize: number): QueuedPage {
    const queued = this.partners.get(partnerId)?.queued ?? [];
    const start = after === undefined ? 0 : firstAfter(queued, after);
    const end = Math.min(queued.length, start + pageSize);
    const found = queued.slice(start, end).map(({ attemptId, eventId }) => ({ attemptId, eventId }));
    if (end < queued.length) return { found, hasMore: true, position: later(queued[end].before, after) };
    return { found, hasMore: false, position: later(this.last, after) };
  }

  /** The attempt whose webhook stream first queued `eventId` for this partner, or null. */
  attemptOf(partnerId: string, eventId: string): string | null {
    return this.partners.get(partnerId)?.attempts.get(eventId) ?? null;
  }

  /**
   * One page of the partner's attempts with a queued event that occurred in [from, to).
   *
   * The range's events are taken in the index's time order, (occurredAt, log position), which is total: strictly
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
    const byTime = this.partners.get(partnerId)?.byTime ?? [];
    /** Each attempt of the page, by its first event in log order. */
    const earliest = new Map<string, QueuedWebhook>();
    let last: QueuedWebhook | undefined;
    let i = Math.max(firstAtOrAfter(byTime, from), after === undefined ? 0 : firstAfterKey(byTime, after));
    for (; i < byTime.length && byTime[i].occurredAt! < to; i++) {
      const entry = byTime[i];
      if (asOf !== undefined && comparePositions(entry.position, asOf) > 0) continue;
      const known = earliest.get(entry.attemptId);
      if (known === undefined && earliest.size >= limit) break;
      if (known === undefined || known.rank > entry.rank) earliest.set(entry.attemptId, entry);
      last = entry;
    }
    const more = i < byTime.length && byTime[i].occurredAt! < to;
    return {
      attempts: [...earliest.values()].sort((a, b) => a.rank - b.rank).map((e) => e.attemptId),
      next:
        more && last !== undefined ? { occurredAt: last.occurredAt!, position: last.position } : undefined,
    };
  }

  /** How many queued events the index holds (all partners). */
  get size(): number {
    let n = 0;
    for (const partner of this.partners.values()) n += partner.queued.length;
    return n;
  }
}

/** The index of the first entry strictly after `after` (binary search on position). */
function firstAfter(queued: QueuedWebhook[], after: Position): number {
  let lo = 0;
  let hi = queued.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePositions(queued[mid].position, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first entry after `key` in time order (occurredAt, then position). */
function firstAfterKey(byTime: QueuedWebhook[], key: QueuedAt): number {
  let lo = 0;
  let hi = byTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = byTime[mid].occurredAt!;
    if (
      at < key.occurredAt ||
      (at === key.occurredAt && comparePositions(byTime[mid].position, key.position) <= 0)
    )
      lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first entry that occurred at or after `from`. */
function firstAtOrAfter(byTime: QueuedWebhook[], from: number): number {
  let lo = 0;
  let hi = byTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byTime[mid].occurredAt! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts after every entry that occurred at or before it (events mostly arrive in time order: a push then). */
function insertByTime(byTime: QueuedWebhook[], entry: QueuedWebhook): void {
  const at = entry.occurredAt!;
  if (byTime.length === 0 || byTime[byTime.length - 1].occurredAt! <= at) {
    byTime.push(entry);
    return;
  }
  let lo = 0;
  let hi = byTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byTime[mid].occurredAt! <= at) lo = mid + 1;
    else hi = mid;
  }
  byTime.splice(lo, 0, entry);
}

/** The later of two positions (undefined: before the first event). */
function later(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

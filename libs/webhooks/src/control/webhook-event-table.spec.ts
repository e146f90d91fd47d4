import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { MemoryEventStore, openReadModelDatabase, ProjectionRunner } from '@svc/event-store';
import { type IndexedEvent, type QueuedAt, queuedWebhookOf } from './webhook-queued';
import { WebhookEventTable, webhookEventsProjection, webhookEventTableOf } from './webhook-event-table';

const pos = (n: number) => String(n).padStart(16, '0');

/** A WebhookQueued at log position n. */
const queued = (n: number, partnerId: string, attemptId: string, eventId: string, occurredAt?: unknown) => ({
  type: 'WebhookQueued',
  data: { partnerId, attemptId, eventId, event: 'settled', occurredAt: occurredAt ?? 1000 + n },
  position: pos(n),
});
/** Another webhook event (a try) at log position n. */
const attempted = (n: number, eventId: string): IndexedEvent => ({
  type: 'WebhookAttempted',
  data: { eventId, attempt: 1 },
  position: pos(n),
});

/** Time order: occurredAt, then log position (the positions here are zero-padded: string order is log order). */
const compare = (a: QueuedAt, b: QueuedAt) =>
  a.occurredAt - b.occurredAt || a.position.localeCompare(b.position);

/**
 * The table, projected by the runner from a memory store holding `events` in order (event n at log position n, as
 * the positions in `events` say), so its checkpoint is where a catch-up stopped.
 */
async function given(events: IndexedEvent[]): Promise<WebhookEventTable> {
  const store = new MemoryEventStore();
  for (const [n, event] of events.entries()) {
    if (event.position !== pos(n + 1)) throw new Error('the events of a log are at positions 1, 2, …');
    const attemptId = typeof event.data['attemptId'] === 'string' ? event.data['attemptId'] : 'x';
    await store.append(`webhook-${attemptId}`, [{ id: randomUUID(), type: event.type, data: event.data }], {
      expectedRevision: 'any',
    });
  }
  const db = openReadModelDatabase(':memory:');
  await new ProjectionRunner(store, db, webhookEventsProjection, { refreshMs: 60_000 }).fresh();
  return webhookEventTableOf(db);
}

/** A table fed directly, event by event (positions as given). */
function fed(events: IndexedEvent[]): WebhookEventTable {
  const table = new WebhookEventTable(openReadModelDatabase(':memory:'));
  for (const event of events) table.apply(event);
  return table;
}

describe('queuedWebhookOf (what the index records of one event)', () => {
  it('records a WebhookQueued with its partner, attempt, event and time', () => {
    expect(queuedWebhookOf(queued(1, 'p-a', 'at_1', 'e1', 5))).toEqual({
      partnerId: 'p-a',
      attemptId: 'at_1',
      eventId: 'e1',
      occurredAt: 5,
    });
  });

  it('ignores tries, and a WebhookQueued missing its ids; keeps one without a time (listed, never recovered)', () => {
    expect(queuedWebhookOf(attempted(1, 'e1'))).toBeNull();
    expect(
      queuedWebhookOf({ ...queued(1, 'p-a', 'at_1', 'e1'), data: { partnerId: 'p-a', eventId: 'e1' } }),
    ).toBeNull();
    expect(queuedWebhookOf(queued(1, 'p-a', 'at_1', 'e1', 'soon'))?.occurredAt).toBeNull();
  });
});

describe('WebhookEventTable', () => {
  // Given: two partners' events interleaved with tries in the log.
  const log: IndexedEvent[] = [
    queued(1, 'p-a', 'at_a1', 'a1'),
    queued(2, 'p-b', 'at_b1', 'b1'),
    attempted(3, 'a1'),
    queued(4, 'p-a', 'at_a1', 'a2'),
    queued(5, 'p-b', 'at_b1', 'b2'),
    queued(6, 'p-a', 'at_a2', 'a3'),
    attempted(7, 'b2'),
  ];

  it("pages one partner's events in queue order, each page naming the partner's event the next reads on after", async () => {
    const index = await given(log);
    // The first page reads on after its last event (a2 at 4).
    expect(index.page('p-a', undefined, 2)).toEqual({
      found: [
        { attemptId: 'at_a1', eventId: 'a1' },
        { attemptId: 'at_a1', eventId: 'a2' },
      ],
      hasMore: true,
      lastEventId: 'a2',
    });
    expect(index.positionOf('p-a', 'a2')).toBe(pos(4));
    expect(index.page('p-a', pos(4), 2).found).toEqual([{ attemptId: 'at_a2', eventId: 'a3' }]);
    // The last page names its last event, whatever other partners stored after it (security review N-L2).
    expect(index.page('p-a', pos(5), 2)).toEqual({
      found: [{ attemptId: 'at_a2', eventId: 'a3' }],
      hasMore: false,
      lastEventId: 'a3',
    });
    expect(index.page('p-a', pos(6), 2)).toEqual({ found: [], hasMore: false, lastEventId: 'a3' });
    // A position between events (or past the end) is read after as it is; an empty page names the partner's last
    // event before it.
    expect(index.page('p-a', pos(3), 5).found.map((f) => f.eventId)).toEqual(['a2', 'a3']);
    expect(index.page('p-a', pos(9), 5)).toEqual({ found: [], hasMore: false, lastEventId: 'a3' });
    expect(index.page('p-b', pos(1), 5).found.map((f) => f.eventId)).toEqual(['b1', 'b2']);
  });

  it('answers an empty page naming no event for a partner it never saw, or on an empty log', async () => {
    expect((await given(log)).page('p-z', undefined, 5)).toEqual({
      found: [],
      hasMore: false,
      lastEventId: null,
    });
    expect((await given(log)).page('p-z', pos(7), 5)).toEqual({
      found: [],
      hasMore: false,
      lastEventId: null,
    });
    expect((await given([])).page('p-a', undefined, 5)).toEqual({
      found: [],
      hasMore: false,
      lastEventId: null,
    });
  });

  it("finds an event's place for its own partner only", async () => {
    const index = await given(log);
    expect(index.positionOf('p-a', 'a3')).toBe(pos(6));
    expect(index.positionOf('p-b', 'a3')).toBeNull();
    expect(index.positionOf('p-a', 'nope')).toBeNull();
  });

  it("finds an event's attempt for its own partner only", async () => {
    const index = await given(log);
    expect(index.attemptOf('p-a', 'a3')).toBe('at_a2');
    expect(index.attemptOf('p-b', 'a3')).toBeNull();
    expect(index.attemptOf('p-a', 'nope')).toBeNull();
  });

  it('lists the attempts with an event that occurred in [from, to), in log order, each once', async () => {
    // Given: times out of log order, and one event with no time.
    const index = await given([
      queued(1, 'p-a', 'at_1', 'e1', 300),
      queued(2, 'p-a', 'at_2', 'e2', 100),
      queued(3, 'p-b', 'at_9', 'e9', 150),
      queued(4, 'p-a', 'at_1', 'e3', 200),
      queued(5, 'p-a', 'at_3', 'e4', 'no time'),
      queued(6, 'p-a', 'at_4', 'e5', 400),
    ]);
    const all = (partnerId: string, from: number, to: number) =>
      index.attemptsQueuedBetween(partnerId, from, to);
    expect(all('p-a', 100, 400)).toEqual({ attempts: ['at_1', 'at_2'], next: undefined });
    expect(all('p-a', 150, 250)).toEqual({ attempts: ['at_1'], next: undefined });
    expect(all('p-a', 400, 401)).toEqual({ attempts: ['at_4'], next: undefined });
    expect(all('p-a', 401, 1000)).toEqual({ attempts: [], next: undefined });
    expect(all('p-b', 0, 1000)).toEqual({ attempts: ['at_9'], next: undefined });
  });

  describe('pages of a recovery range', () => {
    // Given: ties on occurredAt (100 three times, 200 twice), times out of log order, and another partner between.
    const log = [
      queued(1, 'p-a', 'at_1', 'e1', 200),
      queued(2, 'p-a', 'at_2', 'e2', 100),
      queued(3, 'p-b', 'at_9', 'e9', 100),
      queued(4, 'p-a', 'at_3', 'e3', 100),
      queued(5, 'p-a', 'at_1', 'e4', 100),
      queued(6, 'p-a', 'at_4', 'e5', 200),
      queued(7, 'p-a', 'at_5', 'e6', 300),
    ];
    // Time order of p-a: e2 (100, 2), e3 (100, 4), e4 (100, 5), e1 (200, 1), e5 (200, 6), e6 (300, 7).
    const key = (occurredAt: number, n: number): QueuedAt => ({ occurredAt, position: pos(n) });

    it('stop right before the event of an attempt over the limit, and go on strictly after the last event taken', async () => {
      const index = await given(log);
      // e2, e3 name two attempts; e4 is at_1's: a third one.
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2 })).toEqual({
        attempts: ['at_2', 'at_3'],
        next: key(100, 4),
      });
      // e4 and e1 are both at_1's, then e5 (at_4): at_1 is listed at its first event in log order (e1).
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2, after: key(100, 4) })).toEqual({
        attempts: ['at_1', 'at_4'],
        next: key(200, 6),
      });
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2, after: key(200, 6) })).toEqual({
        attempts: ['at_5'],
        next: undefined,
      });
      // With a limit of 1, at_1's two events (e4 at 100, e1 at 200) are one page: nothing between them is another's.
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 1, after: key(100, 4) })).toEqual({
        attempts: ['at_1'],
        next: key(200, 1),
      });
    });

    it('never run past `to`: a page ending at the range end has no next page', async () => {
      const index = await given(log);
      expect(index.attemptsQueuedBetween('p-a', 100, 200, { limit: 3 })).toEqual({
        attempts: ['at_2', 'at_3', 'at_1'],
        next: undefined,
      });
      // at_1's e1 is in this page too, and is its first event in log order.
      expect(index.attemptsQueuedBetween('p-a', 100, 300, { limit: 3 })).toEqual({
        attempts: ['at_1', 'at_2', 'at_3'],
        next: key(200, 1),
      });
      // `after` before `from` starts at `from`; after the last event of the range: an empty last page.
      expect(index.attemptsQueuedBetween('p-a', 200, 300, { after: key(100, 5) }).attempts).toEqual([
        'at_1',
        'at_4',
      ]);
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { after: key(300, 7) })).toEqual({
        attempts: [],
        next: undefined,
      });
    });

    it('leave out what was queued after `asOf`, so later events (ties included) never move a page', async () => {
      const index = await given(log);
      const first = index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2, asOf: pos(7) });
      // Then: a tie with e3 at 100 (log position 8), an earlier time (50) and a new attempt at 200.
      index.apply(queued(8, 'p-a', 'at_6', 'e7', 100));
      index.apply(queued(9, 'p-a', 'at_7', 'e8', 50));
      index.apply(queued(10, 'p-a', 'at_8', 'e9', 200));
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2, asOf: pos(7) })).toEqual(first);
      const second = index.attemptsQueuedBetween('p-a', 0, 1000, {
        limit: 2,
        after: first.next,
        asOf: pos(7),
      });
      expect(second).toEqual({ attempts: ['at_1', 'at_4'], next: key(200, 6) });
      // Without asOf they are in the range like any other event.
      expect(index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 2 }).attempts).toEqual(['at_2', 'at_7']);
    });

    it('refuses a limit under 1', async () => {
      const index = await given(log);
      expect(() => index.attemptsQueuedBetween('p-a', 0, 1000, { limit: 0 })).toThrow(RangeError);
    });

    it('pages through any log taking every event queued by asOf once, in time order, at most `limit` attempts each', () => {
      const event = fc.record({
        partner: fc.constantFrom('p-a', 'p-b'),
        attempt: fc.integer({ min: 0, max: 7 }),
        at: fc.integer({ min: 0, max: 6 }),
      });
      fc.assert(
        fc.property(
          fc.array(event, { maxLength: 40 }),
          fc.array(event, { maxLength: 10 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 3, max: 7 }),
          (before, later, limit, from, to) => {
            const index = new WebhookEventTable(openReadModelDatabase(':memory:'));
            const applied: { attemptId: string; key: QueuedAt }[] = [];
            let n = 0;
            const apply = (e: { partner: string; attempt: number; at: number }) => {
              n += 1;
              index.apply(queued(n, e.partner, `at_${e.attempt}`, `e${n}`, e.at));
              if (e.partner === 'p-a' && e.at >= from && e.at < to)
                applied.push({ attemptId: `at_${e.attempt}`, key: key(e.at, n) });
            };
            before.forEach(apply);
            const asOf = pos(n);
            const expected = applied
              .slice()
              .sort(
                (x, y) => x.key.occurredAt - y.key.occurredAt || x.key.position.localeCompare(y.key.position),
              );
            // Pages one after another, events queued between the pages.
            const taken: typeof expected = [];
            let after: QueuedAt | undefined;
            for (let page = 0; ; page++) {
              if (page < later.length) apply(later[page]);
              const got = index.attemptsQueuedBetween('p-a', from, to, { limit, after, asOf });
              const upTo = got.next;
              const window = expected.filter(
                (e) =>
                  (after === undefined || compare(e.key, after) > 0) &&
                  (upTo === undefined || compare(e.key, upTo) <= 0),
              );
              taken.push(...window);
              const names = [...new Set(window.map((e) => e.attemptId))];
              expect([...got.attempts].sort()).toEqual(names.sort());
              expect(got.attempts.length).toBeLessThanOrEqual(limit);
              if (upTo === undefined) break;
              // The page is as long as it may be: the next event names another attempt, one too many.
              const following = expected.find((e) => compare(e.key, upTo) > 0)!;
              expect(names).toHaveLength(limit);
              expect(names).not.toContain(following.attemptId);
              after = upTo;
            }
            expect(taken).toEqual(expected);
          },
        ),
        { seed: 20261201, numRuns: 300 },
      );
    });
  });

  it('ignores an event at a position it already holds (a page applied again never counts one twice)', () => {
    const index = fed([...log, log[0], log[5]]);
    expect(index.size).toBe(5);
    expect(index.page('p-a', undefined, 10).found).toHaveLength(3);
  });
});

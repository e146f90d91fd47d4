import { type IndexedEvent, queuedWebhookOf, WebhookEventIndex } from './webhook-event-index';

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

function given(events: IndexedEvent[]): WebhookEventIndex {
  const index = new WebhookEventIndex();
  for (const event of events) index.apply(event);
  return index;
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

describe('WebhookEventIndex', () => {
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

  it("pages one partner's events in queue order; the position is where a scan of the log would stop", () => {
    const index = given(log);
    // The first page stops just before a3 (the try of b2 at 5 was the last event a scan read).
    expect(index.page('p-a', undefined, 2)).toEqual({
      found: [
        { attemptId: 'at_a1', eventId: 'a1' },
        { attemptId: 'at_a1', eventId: 'a2' },
      ],
      hasMore: true,
      position: pos(5),
    });
    // The last page runs to the log's last webhook event, whoever's it is.
    expect(index.page('p-a', pos(5), 2)).toEqual({
      found: [{ attemptId: 'at_a2', eventId: 'a3' }],
      hasMore: false,
      position: pos(7),
    });
    expect(index.page('p-a', pos(7), 2)).toEqual({ found: [], hasMore: false, position: pos(7) });
    // A position between events (or past the end) is read after as it is.
    expect(index.page('p-a', pos(3), 5).found.map((f) => f.eventId)).toEqual(['a2', 'a3']);
    expect(index.page('p-a', pos(9), 5)).toEqual({ found: [], hasMore: false, position: pos(9) });
  });

  it('answers an empty page for a partner it never saw, and no position on an empty log', () => {
    expect(given(log).page('p-z', undefined, 5)).toEqual({ found: [], hasMore: false, position: pos(7) });
    expect(given([]).page('p-a', undefined, 5)).toEqual({ found: [], hasMore: false, position: undefined });
  });

  it("finds an event's attempt for its own partner only", () => {
    const index = given(log);
    expect(index.attemptOf('p-a', 'a3')).toBe('at_a2');
    expect(index.attemptOf('p-b', 'a3')).toBeNull();
    expect(index.attemptOf('p-a', 'nope')).toBeNull();
  });

  it('lists the attempts with an event that occurred in [from, to), in log order, each once', () => {
    // Given: times out of log order, and one event with no time.
    const index = given([
      queued(1, 'p-a', 'at_1', 'e1', 300),
      queued(2, 'p-a', 'at_2', 'e2', 100),
      queued(3, 'p-b', 'at_9', 'e9', 150),
      queued(4, 'p-a', 'at_1', 'e3', 200),
      queued(5, 'p-a', 'at_3', 'e4', 'no time'),
      queued(6, 'p-a', 'at_4', 'e5', 400),
    ]);
    expect(index.attemptsQueuedBetween('p-a', 100, 400)).toEqual(['at_1', 'at_2']);
    expect(index.attemptsQueuedBetween('p-a', 150, 250)).toEqual(['at_1']);
    expect(index.attemptsQueuedBetween('p-a', 400, 401)).toEqual(['at_4']);
    expect(index.attemptsQueuedBetween('p-a', 401, 1000)).toEqual([]);
    expect(index.attemptsQueuedBetween('p-b', 0, 1000)).toEqual(['at_9']);
  });

  it('ignores an event at or before the last one applied (a catch-up never counts one twice)', () => {
    const index = given([...log, log[0], log[5]]);
    expect(index.size).toBe(5);
    expect(index.page('p-a', undefined, 10).found).toHaveLength(3);
  });
});

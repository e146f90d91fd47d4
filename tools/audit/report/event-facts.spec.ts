import { encodeSequencePosition, type RecordedEvent } from '@svc/event-store';
import { eventFacts } from './event-facts';

const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: 'e1',
  type,
  data,
  metadata: {},
  streamId: 'webhook-at_1',
  revision: 7,
  position: encodeSequencePosition(42),
  recordedAt: '2026-11-28T00:00:00.000Z',
});

describe('eventFacts of a webhook stream', () => {
  it('given the summary a history compaction left, then it reads it as a known event with each event it summarises', () => {
    const facts = eventFacts(
      recorded('WebhookHistoryCompacted', {
        attemptId: 'at_1',
        partnerId: 'p',
        lastActivityAt: Date.parse('2026-10-01T00:00:00Z'),
        events: [
          {
            eventId: 'evt_at_1_settled',
            event: 'attempt.settled',
            lifecycleRevision: 3,
            occurredAt: Date.parse('2026-10-01T00:00:00Z'),
            status: 'delivered',
            attempts: 2,
            lastError: null,
            lastStatus: 200,
            deliveries: 2,
            firstTryAt: Date.parse('2026-10-01T00:00:01Z'),
            lastTryAt: Date.parse('2026-10-01T00:00:31Z'),
            queuedPosition: encodeSequencePosition(40),
          },
        ],
      }),
    );

    expect(facts).toMatch(/^history compacted/);
    expect(facts).toContain('evt_at_1_settled delivered after 2 tries');
  });
});

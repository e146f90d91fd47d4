import { encodeSequencePosition, type RecordedEvent } from '@svc/event-store';
import { eventFacts } from './event-facts';

const recorded = (type: string, data: Record<string, unknown>, streamId = 'webhook-at_1'): RecordedEvent => ({
  id: 'e1',
  type,
  data,
  metadata: {},
  streamId,
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

describe('eventFacts of a fill claimed per deposit (issue 24 item 1)', () => {
  const tx = `0x${'ab'.repeat(32)}`;
  const settled = {
    sliceId: 't0:1',
    destinationTxHash: tx,
    settledAmount: '19928000',
    amountBasis: 'exact',
    at: Date.parse('2026-11-28T00:00:00Z'),
  };

  it('given a LegSettled naming its deposit, then the line names it; one of an earlier build, without, reads as before', () => {
    expect(
      eventFacts(recorded('LegSettled', { ...settled, depositKey: 'across-42161-0' }, 'attempt-at_1')),
    ).toBe(`t0:1 settled 19928000 (exact), fill ${tx}, deposit across-42161-0`);
    expect(eventFacts(recorded('LegSettled', settled, 'attempt-at_1'))).toBe(
      `t0:1 settled 19928000 (exact), fill ${tx}`,
    );
  });

  it("given the claim of one deposit's delivery, then the line names the deposit; a transaction's own claim does not", () => {
    const claim = { chainId: 8453, txHash: tx, owner: 'fill:at_1:t0:1', at: 1 };
    expect(eventFacts(recorded('TransactionClaimed', claim, `txclaim-8453-${tx}-dep-across-42161-0`))).toBe(
      `chain 8453 tx ${tx} deposit across-42161-0 claimed by fill:at_1:t0:1`,
    );
    expect(
      eventFacts(recorded('TransactionClaimed', { ...claim, owner: 'fills' }, `txclaim-8453-${tx}`)),
    ).toBe(`chain 8453 tx ${tx} claimed by fills`);
  });
});

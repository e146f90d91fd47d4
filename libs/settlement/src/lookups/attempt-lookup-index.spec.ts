import fc from 'fast-check';
import { type AttemptSearchQuery, type AttemptStatus } from '@svc/contract';
import { type AttemptEvent } from '@svc/domain';
import { openReadModelDatabase } from '@svc/event-store';
import { prepared, providerPending, T0, walletSubmitted } from '@svc/domain/attempt-fixture';
import { type AttemptLookupEntry } from './attempt-lookup.projection';
import { AttemptLookupIndex } from './attempt-lookup-index';

const WALLETS = ['0x' + 'a'.repeat(40), '0x' + 'b'.repeat(40)];
const RECIPIENTS = ['0x' + 'c'.repeat(40), '0x' + 'd'.repeat(40)];
const PARTNERS = ['p1', 'p2'];

interface Made {
  partner: number;
  wallet: number;
  recipient: number;
  /** Seconds after T0; several attempts share one, and they arrive out of order. */
  second: number;
  moves: number;
}

function build(made: Made[]): { index: AttemptLookupIndex; all: AttemptLookupEntry[] } {
  const index = new AttemptLookupIndex(openReadModelDatabase(':memory:'));
  made.forEach((m, n) => {
    const attemptId = `at_${String(n).padStart(4, '0')}`;
    const events: AttemptEvent[] = [
      {
        type: 'AttemptPrepared',
        data: {
          ...prepared,
          attemptId,
          partnerId: PARTNERS[m.partner],
          wallet: WALLETS[m.wallet],
          recipient: RECIPIENTS[m.recipient],
          preparedAt: T0 + m.second * 1000,
        },
      },
      walletSubmitted(),
      providerPending(T0 + 20_000),
    ];
    for (const event of events.slice(0, 1 + m.moves)) index.apply(attemptId, event);
  });
  const all = made.flatMap((_, n) =>
    PARTNERS.map((p) => index.get(p, `at_${String(n).padStart(4, '0')}`)).filter((e) => e !== null),
  );
  return { index, all };
}

/** The search as a partner would define it: filter everything, newest first, then the page. */
function reference(
  all: AttemptLookupEntry[],
  partnerId: string,
  q: AttemptSearchQuery,
): AttemptLookupEntry[] {
  return all
    .filter(
      (e) =>
        e.partnerId === partnerId &&
        (q.walletAddress === null || e.walletAddress.toLowerCase() === q.walletAddress) &&
        (q.recipient === null || e.recipient.toLowerCase() === q.recipient) &&
        (q.statuses === null || q.statuses.includes(e.status)) &&
        (q.createdFrom === null || e.createdAt >= q.createdFrom) &&
        (q.createdTo === null || e.createdAt < q.createdTo),
    )
    .sort((a, b) => b.createdAt - a.createdAt || (a.attemptId < b.attemptId ? 1 : -1));
}

const madeArb = fc.array(
  fc.record({
    partner: fc.integer({ min: 0, max: 1 }),
    wallet: fc.integer({ min: 0, max: 1 }),
    recipient: fc.integer({ min: 0, max: 1 }),
    second: fc.integer({ min: 0, max: 20 }),
    moves: fc.integer({ min: 0, max: 2 }),
  }),
  { minLength: 0, maxLength: 60 },
);
const queryArb = fc.record({
  partner: fc.integer({ min: 0, max: 1 }),
  wallet: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
  recipient: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
  statuses: fc.option(
    fc.subarray<AttemptStatus>(['prepared', 'wallet_submitted', 'provider_pending'], { minLength: 1 }),
    {
      nil: null,
    },
  ),
  from: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
  to: fc.option(fc.integer({ min: 0, max: 21 }), { nil: null }),
  limit: fc.integer({ min: 1, max: 7 }),
});

describe('the lookups index: keyset pages over per-wallet and per-recipient lists', () => {
  it('pages through exactly what filtering everything would give, newest first, whatever the arrival order', () => {
    fc.assert(
      fc.property(madeArb, queryArb, (made, q) => {
        fc.pre(q.wallet !== null || q.recipient !== null);
        const { index, all } = build(made);
        const base: AttemptSearchQuery = {
          walletAddress: q.wallet === null ? null : WALLETS[q.wallet],
          recipient: q.recipient === null ? null : RECIPIENTS[q.recipient],
          statuses: q.statuses,
          createdFrom: q.from === null ? null : T0 + q.from * 1000,
          createdTo: q.to === null ? null : T0 + q.to * 1000,
          limit: q.limit,
          after: null,
        };
        const partnerId = PARTNERS[q.partner];
        const seen: string[] = [];
        let query = base;
        for (let pages = 0; pages < 100; pages++) {
          const page = index.search(partnerId, query);
          seen.push(...page.entries.map((e) => e.attemptId));
          if (page.next === null) break;
          query = { ...base, after: page.next };
        }
        expect(seen).toEqual(reference(all, partnerId, base).map((e) => e.attemptId));
      }),
      { numRuns: 300 },
    );
  });
});

import {
  type BeginOutcome,
  IdempotencyLedger,
  type IdempotencyTicket,
} from '../../idempotency/idempotency-ledger';
import {
  CONTRACT_IDEMPOTENCY_RETENTION_SECONDS,
  type RequestRecordsContext,
} from './request-records-harness';

const LEASE_MS = 60_000;
const RETENTION_MS = CONTRACT_IDEMPOTENCY_RETENTION_SECONDS * 1000;
const fp = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };
const is1 = { kind: 'intent_session', id: 'is_1' } as const;
const is2 = { kind: 'intent_session', id: 'is_2' } as const;

function ticketOf(outcome: BeginOutcome): IdempotencyTicket {
  if (outcome.kind !== 'run') throw new Error(`expected a run, got ${outcome.kind}`);
  return outcome.ticket;
}

export function describeIdempotencyStoreContract(context: RequestRecordsContext): void {
  describe('Idempotency-Keys', () => {
    const ledgers = () =>
      context
        .harness()
        .connections()
        .map((records) => new IdempotencyLedger(records.idempotency, { leaseMs: LEASE_MS }));
    const now = () => context.harness().now();
    const advance = (ms: number) => context.harness().advanceClock(ms);

    it('runs a new key once, says "in progress" meanwhile, then replays it and refuses other bytes', async () => {
      const [ledger] = ledgers();
      const ticket = ticketOf(await ledger.begin('p', 'k', fp, now()));
      expect(await ledger.begin('p', 'k', fp, now() + 1_000)).toEqual({
        kind: 'in_progress',
        retryAfterSeconds: 5,
      });
      await ledger.complete(ticket, is1, 200, now() + 2_000);
      expect(await ledger.begin('p', 'k', fp, now() + 3_000)).toEqual({ kind: 'replay', resource: is1 });
      expect(await ledger.begin('p', 'k', { ...fp, bodySha256: 'bb' }, now())).toEqual({ kind: 'reused' });
    });

    it('scopes keys per partner', async () => {
      const [ledger] = ledgers();
      ticketOf(await ledger.begin('p1', 'k', fp, now()));
      ticketOf(await ledger.begin('p2', 'k', { ...fp, bodySha256: 'bb' }, now()));
    });

    it('gives one run to 20 concurrent begins with one key, from every connection', async () => {
      const all = ledgers();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => all[i % all.length].begin('p', 'k', fp, now())),
      );
      expect(outcomes.filter((o) => o.kind === 'run')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'in_progress')).toHaveLength(19);
    });

    it('runs again once the lease ran out, and drops the result of the run that lost the key', async () => {
      const [first, second] = [ledgers()[0], ledgers().at(-1)!];
      const lost = ticketOf(await first.begin('p', 'k', fp, now()));
      advance(LEASE_MS);
      const holder = ticketOf(await second.begin('p', 'k', fp, now()));
      await first.complete(lost, is1, 200, now());
      await first.release(lost, 502, 'dependency_unavailable', now());
      expect(await first.begin('p', 'k', fp, now())).toEqual({ kind: 'in_progress', retryAfterSeconds: 5 });
      await second.complete(holder, is2, 200, now());
      expect(await first.begin('p', 'k', fp, now())).toEqual({ kind: 'replay', resource: is2 });
    });

    it('lets a released key run again, with the same bytes only', async () => {
      const [ledger] = ledgers();
      const first = ticketOf(await ledger.begin('p', 'k', fp, now()));
      await ledger.release(first, 501, 'not_implemented', now());
      expect(await ledger.begin('p', 'k', { ...fp, path: '/other' }, now())).toEqual({ kind: 'reused' });
      const second = ticketOf(await ledger.begin('p', 'k', fp, now()));
      expect(second.requestId).not.toBe(first.requestId);
    });

    it('remembers a key for its retention, and takes it as new after', async () => {
      const [ledger] = ledgers();
      await ledger.complete(ticketOf(await ledger.begin('p', 'k', fp, now())), is1, 200, now());
      advance(RETENTION_MS - 1_000);
      expect(await ledger.begin('p', 'k', fp, now())).toEqual({ kind: 'replay', resource: is1 });
      if (context.harness().expiresWithClock === false) return;
      advance(2_000);
      const again = ticketOf(await ledger.begin('p', 'k', { ...fp, bodySha256: 'other bytes' }, now()));
      await ledger.complete(again, is2, 200, now());
      expect(await ledger.begin('p', 'k', { ...fp, bodySha256: 'other bytes' }, now())).toEqual({
        kind: 'replay',
        resource: is2,
      });
    });

    it('keeps records across a restart', async () => {
      const [before] = ledgers();
      await before.complete(ticketOf(await before.begin('p', 'done', fp, now())), is1, 200, now());
      const running = ticketOf(await before.begin('p', 'running', fp, now()));
      await context.harness().restart();
      const [after] = ledgers();
      expect(await after.begin('p', 'done', fp, now())).toEqual({ kind: 'replay', resource: is1 });
      expect(await after.begin('p', 'running', fp, now())).toEqual({
        kind: 'in_progress',
        retryAfterSeconds: 5,
      });
      await after.complete(running, is2, 200, now());
      expect(await after.begin('p', 'running', fp, now())).toEqual({ kind: 'replay', resource: is2 });
    });
  });
}

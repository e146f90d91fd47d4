import { attemptDecider, attemptStreamId } from '@svc/domain';
import { hash, observeLeg, submittedWithSignature, T0, USDC_BASE, WALLET } from '@svc/domain/attempt-fixture';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleCommand, MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { AttemptFolds, webhookPayload } from './webhook-payload';

const names = { chainName: (id: number) => `chain ${id}` };

/** at_1, submitted with its signature (the domain fixture), in a fresh store. */
async function submittedAttempt() {
  const store = new MemoryEventStore();
  const streamId = attemptStreamId('at_1');
  await store.append(
    streamId,
    submittedWithSignature.map((e) => ({ id: crypto.randomUUID(), type: e.type, data: { ...e.data } })),
    { expectedRevision: 'no_stream' },
  );
  return { store, streamId };
}

describe('webhookPayload', () => {
  it("carries a refunded leg's refund: where the money went, as the status snapshot shows it", async () => {
    const { store, streamId } = await submittedAttempt();
    const refund = {
      chainId: 1,
      token: USDC_BASE,
      amount: '999000000',
      amountBasis: 'exact' as const,
      txHash: hash(77),
      to: WALLET,
    };
    const { revision } = await handleCommand(
      store,
      streamId,
      attemptDecider,
      observeLeg(
        's-eth',
        { state: 'refunded', refundTxHash: hash(77), reason: 'refund', refund },
        T0 + 20_000,
      ),
      { stepId: 'refund' },
    );
    const body = await webhookPayload(
      store,
      {
        attemptId: 'at_1',
        eventId: 'ev-1',
        event: 'provider_pending',
        lifecycleRevision: revision as number,
        occurredAt: T0,
      },
      names,
    );
    const legs = (
      JSON.parse(body!) as { perChainStatus: { legs: { errorCode: string | null; refund?: unknown }[] }[] }
    ).perChainStatus.flatMap((c) => c.legs);
    expect(legs.filter((l) => l.errorCode === 'refunded')).toEqual([
      expect.objectContaining({ errorCode: 'refunded', refund }),
    ]);
  });

  it('is the attempt as of its lifecycle event, not a later state', async () => {
    const { store, streamId } = await submittedAttempt();
    const submitted = submittedWithSignature.length - 1;
    await handleCommand(
      store,
      streamId,
      attemptDecider,
      observeLeg(
        's-eth',
        { state: 'refunded', refundTxHash: hash(77), reason: 'refund', refund: null },
        T0 + 20_000,
      ),
      { stepId: 'refund' },
    );
    const body = await webhookPayload(
      store,
      {
        attemptId: 'at_1',
        eventId: 'ev-0',
        event: 'wallet_submitted',
        lifecycleRevision: submitted,
        occurredAt: T0,
      },
      names,
    );
    const legs = (
      JSON.parse(body!) as { perChainStatus: { legs: { errorCode: string | null }[] }[] }
    ).perChainStatus.flatMap((c) => c.legs);
    expect(legs.every((l) => l.errorCode === null)).toBe(true);
  });
});

describe('webhookPayload with AttemptFolds (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-folds-'));
  const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The attempt submitted with its signature, then its legs refunded one after another: a stream of many events. */
  async function longAttempt(attemptId: string): Promise<number> {
    const streamId = attemptStreamId(attemptId);
    await store.append(
      streamId,
      submittedWithSignature.map((e) => ({
        id: crypto.randomUUID(),
        type: e.type,
        data: { ...e.data, ...('attemptId' in e.data ? { attemptId } : {}) },
      })),
      { expectedRevision: 'no_stream' },
    );
    let last = submittedWithSignature.length - 1;
    for (const [i, leg] of ['s-eth', 's-base'].entries()) {
      const refunded = {
        state: 'refunded' as const,
        refundTxHash: hash(70 + i),
        reason: 'refund',
        refund: null,
      };
      ({ revision: last } = (await handleCommand(
        store,
        streamId,
        attemptDecider,
        observeLeg(leg, refunded, T0 + 20_000 + i),
        { stepId: `refund-${leg}` },
      )) as { revision: number });
    }
    return last;
  }
  const body = (attemptId: string, revision: number, folds?: AttemptFolds) =>
    webhookPayload(
      store,
      {
        attemptId,
        eventId: `ev-${revision}`,
        event: 'provider_pending',
        lifecycleRevision: revision,
        occurredAt: T0,
      },
      names,
      folds,
    );

  it('is byte for byte the body folded from the stream, whatever order the revisions are asked in', async () => {
    const last = await longAttempt('at_folds');
    const folds = new AttemptFolds();
    // Forwards (each fold reads on from the previous), the same again, back to an earlier one (a retry of an older
    // event after newer ones were sent), then a jump ahead.
    const order = [0, 1, 2, 2, last - 1, 1, last, 0, last];
    for (const revision of order) {
      expect(await body('at_folds', revision, folds)).toBe(await body('at_folds', revision));
    }
    const states = new Set(await Promise.all(order.map((r) => body('at_folds', r))));
    expect(states.size).toBeGreaterThan(2); // the revisions asked for are really different states
  });

  it('many attempts and revisions in flight at once on one AttemptFolds: each body is its own', async () => {
    const attempts = ['at_f1', 'at_f2', 'at_f3', 'at_f4'];
    const lasts = await Promise.all(attempts.map((a) => longAttempt(a)));
    const folds = new AttemptFolds(2); // smaller than the attempts in flight: evictions happen meanwhile
    const asks = attempts.flatMap((a, i) => Array.from({ length: lasts[i] + 1 }, (_, r) => [a, r] as const));
    const got = await Promise.all(asks.map(([a, r]) => body(a, r, folds)));
    const want = await Promise.all(asks.map(([a, r]) => body(a, r)));
    expect(got).toEqual(want);
    expect(got.every((b, i) => JSON.parse(b!).attemptId === asks[i][0])).toBe(true);
  });

  it('folds on across an event type a newer build appended, as if it were not there', async () => {
    const last = await longAttempt('at_newer');
    const streamId = attemptStreamId('at_newer');
    await store.append(
      streamId,
      [{ id: crypto.randomUUID(), type: 'FutureThing', data: { note: 'newer' } }],
      {
        expectedRevision: last,
      },
    );
    const { revision: after } = (await handleCommand(
      store,
      streamId,
      attemptDecider,
      observeLeg(
        's-arb',
        { state: 'refunded', refundTxHash: hash(79), reason: 'refund', refund: null },
        T0 + 30_000,
      ),
      { stepId: 'refund-s-arb' },
    )) as { revision: number };
    const folds = new AttemptFolds();
    expect(await body('at_newer', last, folds)).toBe(await body('at_newer', last));
    // From the fold held at `last`, only the events after it are read: the newer one among them.
    const got = await body('at_newer', after, folds);
    expect(got).toBe(await body('at_newer', after));
    const legs = (
      JSON.parse(got!) as { perChainStatus: { legs: { errorCode: string | null }[] }[] }
    ).perChainStatus.flatMap((c) => c.legs);
    expect(legs.filter((l) => l.errorCode === 'refunded')).toHaveLength(3);
  });
});

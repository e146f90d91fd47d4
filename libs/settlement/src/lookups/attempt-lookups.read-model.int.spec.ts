import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttemptSearchQuery, encodeSearchCursor, validateAttemptSearchRequest } from '@svc/contract';
import { type AttemptEvent, type AttemptPreparedData, attemptStreamId } from '@svc/domain';
import { evidenceReported, hash, legSettled, prepared, T0 } from '@svc/domain/attempt-fixture';
import { type EventStore, MemoryEventStore, openReadModelDatabase, SqliteEventStore } from '@svc/event-store';
import { observedReads } from '@svc/testing';
import { AttemptLookupsReadModel } from './attempt-lookups.read-model';

const WALLETS = ['0x' + '1'.repeat(40), '0x' + '2'.repeat(40)];
const RECIPIENT = '0x' + '3'.repeat(40);

/** The AttemptPrepared of attempt n: partner, wallet and creation time vary with n (some share a millisecond). */
function preparedEvent(
  n: number,
  partnerId: string,
  wallet: string,
): { type: 'AttemptPrepared'; data: AttemptPreparedData } {
  return {
    type: 'AttemptPrepared',
    data: {
      ...prepared,
      attemptId: `at_${String(n).padStart(3, '0')}`,
      partnerId,
      wallet,
      recipient: RECIPIENT,
      preparedAt: T0 + Math.floor(n / 3) * 1000,
    },
  };
}

const query = (body: Record<string, unknown>): AttemptSearchQuery => {
  const checked = validateAttemptSearchRequest(body, { maxFeeBps: 0, callbackUrl: null });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
};

type OpenStore = () => { store: EventStore; cleanup: () => void };

describe.each<[string, OpenStore]>([
  ['memory', () => ({ store: new MemoryEventStore(), cleanup: () => undefined })],
  [
    'SQLite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'lookups-'));
      return {
        store: SqliteEventStore.open({ file: join(dir, 'events.sqlite') }),
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
])('the lookup read model over the %s event store', (_, open) => {
  let store: EventStore;
  let cleanup: () => void;
  let model: AttemptLookupsReadModel;

  beforeEach(() => {
    ({ store, cleanup } = open());
    model = new AttemptLookupsReadModel(store, openReadModelDatabase(':memory:'));
  });
  afterEach(async () => {
    await model.onModuleDestroy();
    await store.close();
    cleanup();
  });

  const append = (attemptId: string, events: AttemptEvent[]) =>
    store.append(
      attemptStreamId(attemptId),
      events.map((e) => ({
        id: randomUUID(),
        type: e.type,
        data: e.data as unknown as Record<string, unknown>,
      })),
      { expectedRevision: 'any' },
    );

  /** Every page of a search, following nextCursor. */
  async function allPages(partnerId: string, body: Record<string, unknown>): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      await model.fresh();
      const q = query({ ...body, ...(cursor ? { cursor } : {}) });
      const page = model.index.search(partnerId, q);
      pages.push(page.entries.map((e) => e.attemptId));
      cursor = page.next ? encode(q, page.next) : undefined;
    } while (cursor);
    return pages;
  }

  it('finds each attempt right after it is recorded, with many recorded at once (read-your-writes)', async () => {
    const seen = await Promise.all(
      Array.from({ length: 40 }, async (_, n) => {
        const event = preparedEvent(n, n % 4 === 0 ? 'partner_b' : 'partner_a', WALLETS[n % 2]);
        await append(event.data.attemptId, [event]);
        await model.fresh();
        const partnerId = event.data.partnerId;
        return model.index
          .search(partnerId, query({ walletAddress: WALLETS[n % 2], limit: 100 }))
          .entries.some((e) => e.attemptId === event.data.attemptId);
      }),
    );
    expect(seen).toEqual(seen.map(() => true));
    expect(model.index.size).toBe(40);
  });

  it('answers a query that arrives during a catch-up only after a catch-up that started after it', async () => {
    // The first catch-up has read the log but not finished when an attempt is recorded and a query arrives.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = true;
    const slowStore = Object.create(store) as EventStore;
    slowStore.readAllPage = async (options) => {
      const events = await store.readAllPage(options);
      if (gated) {
        gated = false;
        await gate;
      }
      return events;
    };
    const slow = new AttemptLookupsReadModel(slowStore, openReadModelDatabase(':memory:'));
    const first = slow.fresh();
    await new Promise((r) => setTimeout(r, 20));
    const late = preparedEvent(0, 'p', WALLETS[0]);
    await append('at_late', [{ ...late, data: { ...late.data, attemptId: 'at_late' } }]);
    const second = slow.fresh();
    release();
    await first;
    expect(slow.index.get('p', 'at_late')).toBeNull();
    await second;
    expect(slow.index.get('p', 'at_late')?.attemptId).toBe('at_late');
    await slow.onModuleDestroy();
  });

  it('pages through every match exactly once, newest first, and never shows another partner its attempts', async () => {
    for (let n = 0; n < 30; n++) {
      const event = preparedEvent(n, n % 5 === 0 ? 'partner_b' : 'partner_a', WALLETS[0]);
      await append(event.data.attemptId, [event]);
    }
    const pages = await allPages('partner_a', {
      walletAddress: WALLETS[0].toUpperCase().replace('0X', '0x'),
      limit: 7,
    });
    const expected = Array.from({ length: 30 }, (_, n) => n)
      .filter((n) => n % 5 !== 0)
      .reverse()
      .map((n) => `at_${String(n).padStart(3, '0')}`);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 3]);
    expect(pages.flat()).toEqual(expected);
    expect((await allPages('partner_b', { walletAddress: WALLETS[0] })).flat()).toHaveLength(6);
    expect((await allPages('partner_c', { walletAddress: WALLETS[0] })).flat()).toEqual([]);
  });

  it('keeps later pages stable while new attempts are created, and filters by status and time', async () => {
    for (let n = 0; n < 12; n++)
      await append(`at_${String(n).padStart(3, '0')}`, [preparedEvent(n, 'p', WALLETS[1])]);
    await model.fresh();
    const q = query({ recipient: RECIPIENT, limit: 5 });
    const first = model.index.search('p', q);
    for (let n = 12; n < 20; n++)
      await append(`at_${String(n).padStart(3, '0')}`, [preparedEvent(n, 'p', WALLETS[1])]);
    await model.fresh();
    const second = model.index.search(
      'p',
      query({ recipient: RECIPIENT, limit: 5, cursor: encode(q, first.next!) }),
    );
    expect(second.entries.map((e) => e.attemptId)).toEqual([
      'at_006',
      'at_005',
      'at_004',
      'at_003',
      'at_002',
    ]);

    await append('at_003', [{ type: 'AttemptWalletSubmitted', data: { at: T0 + 9_000 } }]);
    await model.fresh();
    const submitted = model.index.search(
      'p',
      query({ walletAddress: WALLETS[1], status: 'wallet_submitted' }),
    );
    expect(submitted.entries.map((e) => [e.attemptId, e.status])).toEqual([['at_003', 'wallet_submitted']]);
    const window = model.index.search(
      'p',
      query({
        walletAddress: WALLETS[1],
        createdFrom: new Date(T0 + 2000).toISOString(),
        createdTo: new Date(T0 + 4000).toISOString(),
      }),
    );
    expect(window.entries.map((e) => e.attemptId)).toEqual([
      'at_011',
      'at_010',
      'at_009',
      'at_008',
      'at_007',
      'at_006',
    ]);
  });

  it('finds the attempt of a source transaction and of a fill, for its partner only; a new replica rebuilds the same', async () => {
    await append('at_001', [
      preparedEvent(1, 'p', WALLETS[0]),
      evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(11)] }]),
      legSettled('s-eth', '5', T0 + 20_000, hash(12)),
    ]);
    await append('at_002', [
      preparedEvent(2, 'q', WALLETS[0]),
      evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(11)] }]),
    ]);
    await model.fresh();
    const found = (m: AttemptLookupsReadModel, partner: string, chainId: number, tx: string) =>
      m.index.byTransactionHash(partner, chainId, tx).map((e) => e.attemptId);
    expect(found(model, 'p', 1, hash(11))).toEqual(['at_001']);
    expect(found(model, 'p', 8453, hash(12).toUpperCase().replace('0X', '0x'))).toEqual(['at_001']);
    expect(found(model, 'p', 1, hash(12))).toEqual([]);
    expect(found(model, 'q', 8453, hash(12))).toEqual([]);

    const replica = new AttemptLookupsReadModel(store, openReadModelDatabase(':memory:'));
    await replica.fresh();
    expect([found(replica, 'p', 8453, hash(12)), found(replica, 'q', 1, hash(11))]).toEqual([
      ['at_001'],
      ['at_002'],
    ]);
    await replica.onModuleDestroy();
  });
});

/** The cursor the service hands out (AttemptLookupsService) for the same filters. */
const encode = (q: AttemptSearchQuery, last: { createdAt: number; attemptId: string }): string =>
  encodeSearchCursor(q, last);

describe('two processes on one SQLite file (a writer and a lookup replica)', () => {
  it('the replica finds what the writer recorded, before every lookup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookups-two-'));
    const writer = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    const reader = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    const replica = new AttemptLookupsReadModel(reader, openReadModelDatabase(':memory:'));
    try {
      for (let n = 0; n < 5; n++) {
        const event = preparedEvent(n, 'p', WALLETS[0]);
        await writer.append(
          attemptStreamId(`at_${String(n).padStart(3, '0')}`),
          [{ id: randomUUID(), type: event.type, data: event.data as unknown as Record<string, unknown> }],
          { expectedRevision: 'no_stream' },
        );
        await replica.fresh();
        expect(replica.index.search('p', query({ walletAddress: WALLETS[0] })).entries).toHaveLength(n + 1);
      }
    } finally {
      await replica.onModuleDestroy();
      await reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the lookup read model across restarts and upgrades (SQLite events and read models)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lookups-restart-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const appendTo = (store: EventStore, attemptId: string, events: { type: string; data: unknown }[]) =>
    store.append(
      attemptStreamId(attemptId),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as Record<string, unknown> })),
      { expectedRevision: 'any' },
    );

  it('a restarted process serves from its tables at once and reads only the events after its checkpoint', async () => {
    const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    for (let n = 0; n < 20; n++) await appendTo(store, `at_${n}`, [preparedEvent(n, 'p', WALLETS[n % 2])]);
    const first = new AttemptLookupsReadModel(store, openReadModelDatabase(join(dir, 'read-models.sqlite')));
    await first.fresh();
    const checkpoint = first.runner.position;
    await first.onModuleDestroy();
    await appendTo(store, 'at_late', [preparedEvent(20, 'p', WALLETS[0])]);

    const { store: watched, reads } = observedReads(store);
    const restarted = new AttemptLookupsReadModel(
      watched,
      openReadModelDatabase(join(dir, 'read-models.sqlite')),
    );
    expect(restarted.index.size).toBe(20); // before any read of the log
    await restarted.fresh();

    expect(reads).toEqual([checkpoint]);
    expect(restarted.index.size).toBe(21);
    expect(restarted.index.search('p', query({ walletAddress: WALLETS[0] })).entries).toHaveLength(11);
    await restarted.onModuleDestroy();
    await store.close();
  });

  it('an event type of a newer build is skipped and a malformed event quarantined: every other attempt is still found', async () => {
    const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    await appendTo(store, 'at_1', [
      preparedEvent(1, 'p', WALLETS[0]),
      { type: 'LegRebated', data: { sliceId: 's-eth', at: T0 } }, // written by a newer build
      evidenceReported('r1', [{ chainId: 1, bundleId: null, txHashes: [hash(11)] }]),
    ]);
    await appendTo(store, 'at_2', [{ type: 'AttemptPrepared', data: { attemptId: 'at_2', legs: 'broken' } }]);
    await appendTo(store, 'at_3', [preparedEvent(3, 'p', WALLETS[0])]);
    const model = new AttemptLookupsReadModel(store, openReadModelDatabase(':memory:'));

    await model.fresh();

    expect(
      model.index.search('p', query({ walletAddress: WALLETS[0] })).entries.map((e) => e.attemptId),
    ).toEqual(['at_003', 'at_001']);
    expect(model.index.byTransactionHash('p', 1, hash(11)).map((e) => e.attemptId)).toEqual(['at_001']);
    expect(model.runner.stats.skipped).toEqual({ LegRebated: 1 });
    expect(model.runner.quarantined()).toEqual([
      expect.objectContaining({ streamId: attemptStreamId('at_2'), revision: 0, type: 'AttemptPrepared' }),
    ]);
    await model.onModuleDestroy();
    await store.close();
  });
});

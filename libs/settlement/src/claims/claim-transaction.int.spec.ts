import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { claimTransaction } from './claim-transaction';

const HASH = `0x${'ab'.repeat(32)}`;

describe('claimTransaction over SQLite', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'claims-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a transaction to the first claimer for good; its owner claiming again keeps it', async () => {
    const source = { role: 'source' as const, attemptId: 'at_1' };
    expect(await claimTransaction(store, { chainId: 1, txHash: HASH, claim: source, at: 1 })).toBe(
      'source:at_1',
    );
    expect(await claimTransaction(store, { chainId: 1, txHash: HASH, claim: source, at: 2 })).toBe(
      'source:at_1',
    );
    const other = { role: 'source' as const, attemptId: 'at_2' };
    expect(await claimTransaction(store, { chainId: 1, txHash: HASH, claim: other, at: 3 })).toBe(
      'source:at_1',
    );
    // The same hash on another chain is another transaction; the hash's case does not matter.
    expect(
      await claimTransaction(store, {
        chainId: 8453,
        txHash: HASH.toUpperCase().replace('0X', '0x'),
        claim: other,
        at: 4,
      }),
    ).toBe('source:at_2');
    const stored = await store.readStream(`txclaim-1-${HASH}`);
    expect(stored.map((e) => e.data)).toEqual([{ chainId: 1, txHash: HASH, owner: 'source:at_1', at: 1 }]);
  });

  it('of twenty attempts claiming one fill at once, exactly one holds it and every one is told which', async () => {
    const claims = Array.from({ length: 20 }, (_, i) =>
      claimTransaction(store, {
        chainId: 8453,
        txHash: HASH,
        claim: { role: 'fill', attemptId: `at_${i}`, sliceId: 't0:0' },
        at: i,
      }),
    );
    const owners = await Promise.all(claims);
    expect(new Set(owners).size).toBe(1);
    expect((await store.readStream(`txclaim-8453-${HASH}`)).map((e) => e.data['owner'])).toEqual([owners[0]]);
  });
});

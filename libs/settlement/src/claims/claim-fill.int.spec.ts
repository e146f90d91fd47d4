import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { claimFill } from './claim-fill';
import { claimTransaction } from './claim-transaction';

const HASH = `0x${'cd'.repeat(32)}`;
const legA = { role: 'fill' as const, attemptId: 'at_1', sliceId: 't0:0' };
const legB = { role: 'fill' as const, attemptId: 'at_1', sliceId: 't0:1' };
const legC = { role: 'fill' as const, attemptId: 'at_2', sliceId: 't0:0' };

describe('claimFill over SQLite: one claim per (chain, transaction, deposit) (issue 24 item 1)', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fill-claims-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const claim = (leg: typeof legA, depositKey: string, at = 1) =>
    claimFill(store, { chainId: 8453, txHash: HASH, depositKey, claim: leg, at });

  it('gives each deposit of one fill transaction to its own leg, of one attempt or another', async () => {
    expect(await claim(legA, 'across-1-7')).toBe('fill:at_1:t0:0');
    expect(await claim(legB, 'across-1-8')).toBe('fill:at_1:t0:1');
    expect(await claim(legC, 'across-10-7')).toBe('fill:at_2:t0:0');
    // A deposit is still claimed once: another leg naming it is told who holds it; its owner again keeps it.
    expect(await claim(legC, 'across-1-7', 2)).toBe('fill:at_1:t0:0');
    expect(await claim(legA, 'across-1-7', 3)).toBe('fill:at_1:t0:0');
    expect((await store.readStream(`txclaim-8453-${HASH}`)).map((e) => e.data['owner'])).toEqual(['fills']);
    expect((await store.readStream(`txclaim-8453-${HASH}-dep-across-1-8`)).map((e) => e.data)).toEqual([
      { chainId: 8453, txHash: HASH, owner: 'fill:at_1:t0:1', at: 1 },
    ]);
  });

  it("a transaction claimed as an attempt's source is no fill; a per-deposit fill keeps a source claim out", async () => {
    const source = { role: 'source' as const, attemptId: 'at_9' };
    expect(await claimTransaction(store, { chainId: 8453, txHash: HASH, claim: source, at: 0 })).toBe(
      'source:at_9',
    );
    expect(await claim(legA, 'across-1-7')).toBe('source:at_9');
    expect(await claimTransaction(store, { chainId: 1, txHash: HASH, claim: legA, at: 0 })).toBe(
      'fill:at_1:t0:0',
    );
    await claimFill(store, { chainId: 10, txHash: HASH, depositKey: 'across-1-7', claim: legB, at: 1 });
    expect(await claimTransaction(store, { chainId: 10, txHash: HASH, claim: source, at: 2 })).toBe('fills');
  });

  it("an earlier build's whole-transaction claim: its own leg goes on, every other leg is refused", async () => {
    // The stream an earlier build wrote for leg A's fill (settled with every transfer of the transaction).
    await claimTransaction(store, { chainId: 8453, txHash: HASH, claim: legA, at: 0 });
    expect(await claim(legA, 'across-1-7')).toBe('fill:at_1:t0:0');
    expect(await claim(legB, 'across-1-8')).toBe('fill:at_1:t0:0');
  });

  it('of ten legs claiming one deposit at once, exactly one holds it and every one is told which', async () => {
    const owners = await Promise.all(
      Array.from({ length: 10 }, (_, i) => claim({ ...legA, attemptId: `at_${i}` }, 'across-1-7', i)),
    );
    expect(new Set(owners).size).toBe(1);
  });
});

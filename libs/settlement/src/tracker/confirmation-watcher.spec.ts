import { ChainRegistry } from '@svc/chains';
import { MemoryEventStore } from '@svc/event-store';
import { ManualClock } from '@svc/testing';
import { type WaitingLeg } from './confirmation-schedule';
import { ConfirmationWatcher } from './confirmation-watcher';

/**
 * Shards (ADR 0003): the watcher reads the chains only for legs of attempts this process holds. Its chain is a node
 * that refuses connections, so a read shows as the watcher's warning: none while it holds no leg's attempt.
 */
describe('ConfirmationWatcher and shard leases', () => {
  const leg: WaitingLeg = {
    attemptId: 'a-1',
    sliceId: 's1',
    fill: {
      chainId: 8453,
      txHash: `0x${'ab'.repeat(32)}`,
      blockNumber: 10n,
      blockHash: `0x${'cd'.repeat(32)}`,
    },
    source: null,
  };

  function watcher(owned: Set<string>) {
    const warnings: Record<string, unknown>[] = [];
    const chains = new ChainRegistry(
      [
        {
          chainId: 8453,
          name: 'base',
          rpcUrl: 'http://127.0.0.1:9',
          nativeSymbol: 'ETH',
          confirmations: { blocks: 2 },
        },
      ],
      { retryCount: 0, timeoutMs: 1_000 },
    );
    const w = new ConfirmationWatcher(
      {
        store: new MemoryEventStore(),
        chains,
        clock: new ManualClock(0),
        owns: (attemptId) => owned.has(attemptId),
        claim: () => true,
        release: () => undefined,
        warn: (entry) => warnings.push(entry),
      },
      { headPollMs: 50, concurrency: 4 },
    );
    return { w, warnings };
  }

  it('a leg of an attempt of another shard: no chain is read', async () => {
    const { w, warnings } = watcher(new Set());
    w.track('a-1', [leg]);
    await w.poll();
    expect(warnings).toEqual([]);
  });

  it('the same leg once its shard is held: its chain head is read (here the node refuses: a warning, no throw)', async () => {
    const { w, warnings } = watcher(new Set(['a-1']));
    w.track('a-1', [leg]);
    await w.poll();
    expect(warnings).toEqual([
      expect.objectContaining({ msg: expect.stringContaining('chain head'), chainId: 8453 }),
    ]);
  });

  it('an attempt forgotten (ended, or no leg awaiting) leaves nothing behind', () => {
    const { w } = watcher(new Set(['a-1']));
    w.track('a-1', [leg]);
    expect(w.size).toBe(1);
    w.track('a-1', []);
    expect(w.size).toBe(0);
    w.track('a-1', [leg]);
    w.forget('a-1');
    expect(w.size).toBe(0);
  });
});

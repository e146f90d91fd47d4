import { Logger } from '@nestjs/common';
import { ChainRegistry } from '@svc/chains';
import { attemptStreamId, DEFAULT_TRACKING_POLICY, initialTrackingState } from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import { type WorkSharing } from '@svc/leases';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  type CountingRpcProxy,
  createAnvilClient,
  deployArtifact,
  ManualClock,
  startAnvil,
  startCountingRpcProxy,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address, encodeFunctionData, type Hash, type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { DEFAULT_SETTLEMENT_OPTIONS } from '../settlement.options';
import { waitingLegs } from './confirmation-schedule';
import { ConfirmationWatcher } from './confirmation-watcher';
import { SettlementTracker } from './settlement-tracker';
import { noopAttempt } from './testing/noop-attempt';
import { trackAttempt } from './track-attempt';
import { type TrackerDeps } from './tracker-deps';

/**
 * Block-driven confirmation (ADR 0008 "Confirmation is block-driven") on anvil, with many legs waiting at once: each
 * leg settles at the first head that makes its fill 2 blocks deep (the sandbox policy), the look at that head reads
 * the chain once per block the legs were seen in (counted by a real RPC proxy in front of the node), not once per
 * leg, and a reorganisation before the depth sends exactly the legs of the replaced block back to tracking. Each leg
 * is a no-op slice (the wallet's own transfer is its source transaction and its fill): what is under test is the
 * chain side.
 */
const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000c0de';
const AMOUNT = 1_000n;
const transfer: Hex = encodeFunctionData({
  abi: TestTokenArtifact.abi,
  functionName: 'transfer',
  args: [recipient, AMOUNT],
});

describe('ConfirmationWatcher: many legs waiting at once (anvil, 2-block policy)', () => {
  let node: AnvilInstance;
  let client: AnvilClient;
  let proxy: CountingRpcProxy;
  let token: Address;
  let chains: ChainRegistry;

  beforeAll(async () => {
    node = await startAnvil({ chainId });
    client = createAnvilClient(node);
    proxy = await startCountingRpcProxy(node.rpcUrl);
    token = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['Token', 'TT', 18],
    });
    const mint = await client.writeContract({
      account: deployer,
      address: token,
      abi: TestTokenArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, 10n ** 24n],
    });
    await client.waitForTransactionReceipt({ hash: mint });
    chains = new ChainRegistry([
      { chainId, name: 'base', rpcUrl: proxy.url, nativeSymbol: 'ETH', confirmations: { blocks: 2 } },
    ]);
  }, 30_000);
  afterAll(async () => {
    await proxy?.close();
    await node?.stop();
  });

  /** `count` transfers mined together in one new block; their hashes. */
  async function transfersInOneBlock(count: number): Promise<Hash[]> {
    await client.setAutomine(false);
    try {
      const nonce = await client.getTransactionCount({ address: wallet.address, blockTag: 'pending' });
      const hashes: Hash[] = [];
      for (let i = 0; i < count; i++) {
        const raw = await wallet.signTransaction({
          type: 'eip1559',
          chainId,
          nonce: nonce + i,
          gas: 100_000n,
          maxFeePerGas: parseGwei('10'),
          maxPriorityFeePerGas: parseGwei('1'),
          to: token,
          data: transfer,
        });
        hashes.push(await client.sendRawTransaction({ serializedTransaction: raw }));
      }
      await client.mine({ blocks: 1 });
      return hashes;
    } finally {
      await client.setAutomine(true);
    }
  }

  const depsOf = (store: MemoryEventStore): TrackerDeps => ({
    store,
    chains,
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
    confirmationsWatched: true,
  });

  /** An attempt per transfer, tracked until its fill is seen (LegFillSeen); their ids. */
  async function seenAttempts(store: MemoryEventStore, prefix: string, hashes: Hash[]): Promise<string[]> {
    const now = Date.now();
    const ids = hashes.map((_, i) => `${prefix}-${i}`);
    await Promise.all(
      ids.map(async (attemptId, i) => {
        await noopAttempt(store, {
          attemptId,
          txHash: hashes[i],
          now,
          chainId,
          token,
          wallet: wallet.address,
          recipient,
          amount: AMOUNT,
          data: transfer,
        });
        let state = initialTrackingState;
        for (let run = 1; run <= 3; run++) {
          const { record } = (await loadAttempt(store, attemptId, null))!;
          state = (await trackAttempt(depsOf(store), record, state, now + run * 1_000)).tracking;
        }
      }),
    );
    for (const attemptId of ids) {
      const { record } = (await loadAttempt(store, attemptId, null))!;
      expect(record.slices[0].awaitingConfirmation).not.toBeNull();
    }
    return ids;
  }

  function watcherOver(store: MemoryEventStore, ids: string[]) {
    const warnings: Record<string, unknown>[] = [];
    const watcher = new ConfirmationWatcher(
      {
        store,
        chains,
        clock: new ManualClock(Date.now()),
        owns: () => true,
        claim: () => true,
        release: () => undefined,
        warn: (entry) => warnings.push(entry),
      },
      { headPollMs: 50, concurrency: 16 },
    );
    return {
      watcher,
      warnings,
      async trackAll() {
        for (const attemptId of ids) {
          const { record } = (await loadAttempt(store, attemptId, null))!;
          watcher.track(
            attemptId,
            waitingLegs(record, (id) => chains.has(id)),
          );
        }
      },
    };
  }

  const typesOf = async (store: MemoryEventStore, attemptId: string) =>
    (await store.readStream(attemptStreamId(attemptId))).map((e) => e.type);
  const settled = async (store: MemoryEventStore, ids: string[]) =>
    (await Promise.all(ids.map((id) => typesOf(store, id)))).map((types) => types.includes('AttemptSettled'));
  const count = (methods: string[], method: string) => methods.filter((m) => m === method).length;

  it('30 legs in two blocks: the first block’s legs settle at the head that makes it 2 deep, read once per block; a reorganisation sends the second’s back to tracking', async () => {
    const store = new MemoryEventStore();
    const first = await seenAttempts(store, 'w-a', await transfersInOneBlock(15));
    const second = await seenAttempts(store, 'w-b', await transfersInOneBlock(15));
    const { watcher, warnings, trackAll } = watcherOver(store, [...first, ...second]);
    await trackAll();
    expect(watcher.size).toBe(30);

    // Head = the second block: the first is one deep, nothing is final.
    await watcher.poll();
    expect(await settled(store, [...first, ...second])).not.toContain(true);

    // One block more: the first block's 15 legs are 2 deep and settle in this one look; the second's wait.
    await client.mine({ blocks: 1 });
    proxy.methods.length = 0;
    await watcher.poll();
    expect(await settled(store, first)).toEqual(first.map(() => true));
    expect(await settled(store, second)).toEqual(second.map(() => false));
    // The look read the head, the final block and the one block the 15 fills (and their sources) are in: no receipt,
    // nothing per leg.
    expect(count(proxy.methods, 'eth_getTransactionReceipt')).toBe(0);
    expect(proxy.methods.length).toBeLessThanOrEqual(3);
    expect(watcher.size).toBe(15);

    // A look without a new head reads the head only and decides nothing.
    proxy.methods.length = 0;
    await watcher.poll();
    expect(proxy.methods).toEqual(['eth_getBlockByNumber']);
    expect(await settled(store, second)).toEqual(second.map(() => false));

    // The second block (and the one on it) replaced by empty ones before it is final (anvil_reorg, depth 2): at the
    // next look every leg in it goes back to tracking, recorded.
    await client.request({ method: 'anvil_reorg' as never, params: [2, []] as never });
    await watcher.poll();
    for (const attemptId of second) {
      expect(await typesOf(store, attemptId)).toEqual(
        expect.arrayContaining(['SourceTransactionReorged', 'LegFillReorged']),
      );
      expect((await loadAttempt(store, attemptId, null))!.record.slices[0].awaitingConfirmation).toBeNull();
    }
    for (const attemptId of first) expect(await typesOf(store, attemptId)).not.toContain('LegFillReorged');

    // Nothing left: memory is the legs in flight, and no chain is read while nothing waits.
    expect(watcher.size).toBe(0);
    proxy.methods.length = 0;
    await watcher.poll();
    expect(proxy.methods).toEqual([]);
    expect(warnings).toEqual([]);
  }, 30_000);

  it('the SettlementTracker: 30 legs awaiting settle at the head that makes them final, by its watcher, no run of theirs', async () => {
    Logger.overrideLogger(false);
    const store = new MemoryEventStore();
    const clock = new ManualClock(Date.now());
    const sharing: WorkSharing = { instanceId: 'tracker-w', shardCount: 1, leaseTtlMs: 15_000 };
    const tracker = new SettlementTracker(
      store,
      chains,
      {},
      clock,
      { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0 },
      sharing,
    );
    const hashes = await transfersInOneBlock(30);
    const ids = hashes.map((_, i) => `t-${i}`);
    for (const [i, attemptId] of ids.entries()) {
      await noopAttempt(store, {
        attemptId,
        txHash: hashes[i],
        now: clock.now(),
        chainId,
        token,
        wallet: wallet.address,
        recipient,
        amount: AMOUNT,
        data: transfer,
      });
    }
    await tracker.onApplicationBootstrap();
    try {
      const allSeen = async () =>
        (await Promise.all(ids.map((id) => typesOf(store, id)))).every((types) =>
          types.includes('LegFillSeen'),
        );
      for (let i = 0; i < 20 && !(await allSeen()); i++) {
        clock.advance(100);
        await tracker.tick();
      }
      expect(await allSeen()).toBe(true);
      await tracker.tick(); // the runs' own events come back through the log: nothing is due after this
      expect(await settled(store, ids)).not.toContain(true);

      // Two blocks on top, and the clock does not move: no attempt is due, the watcher's look settles all 30.
      await client.mine({ blocks: 2 });
      proxy.methods.length = 0;
      await tracker.tick();
      expect(await settled(store, ids)).toEqual(ids.map(() => true));
      expect(count(proxy.methods, 'eth_getTransactionReceipt')).toBe(0);
    } finally {
      await tracker.onApplicationShutdown();
    }
  }, 30_000);
});

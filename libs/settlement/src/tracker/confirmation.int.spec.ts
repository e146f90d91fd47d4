import { ChainRegistry, type ChainConfig } from '@svc/chains';
import {
  attemptStreamId,
  DEFAULT_TRACKING_POLICY,
  initialTrackingState,
  type TrackingState,
} from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import { type WorkSharing } from '@svc/leases';
import {
  ANVIL_ACCOUNTS,
  ManualClock,
  type AnvilClient,
  type AnvilInstance,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address, encodeFunctionData, type Hash, type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { trackAttempt } from './track-attempt';
import { recheckSettledFills } from './leg-finality';
import { Logger } from '@nestjs/common';
import { DEFAULT_SETTLEMENT_OPTIONS } from '../settlement.options';
import { settlementMetrics } from './settlement-metrics';
import { SETTLED_RECHECK_EVERY_MS, SettlementTracker } from './settlement-tracker';
import { noopAttempt } from './testing/noop-attempt';
import { type TrackerDeps } from './tracker-deps';

/**
 * Issue 24 item 3 (security review N-M7) on anvil: a leg settles only once its fill and its source transaction are
 * two blocks deep (the sandbox policy); a reorganisation before that sends it back to tracking, and the refill
 * settles; with two nodes of which one disagrees and quorum 2 nothing settles, with a third that agrees it does.
 * The leg is a no-op slice (the wallet's own transfer to the recipient is both its source transaction and its fill),
 * so no provider is involved: what is under test is the chain side.
 */
const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000c0de';
const AMOUNT = 1_000n;

describe('a fill is final enough to credit (anvil, 2-block policy)', () => {
  let main: AnvilInstance;
  let stranger: AnvilInstance;
  let client: AnvilClient;
  let token: Address;
  const extra: AnvilInstance[] = [];

  beforeAll(async () => {
    [main, stranger] = await Promise.all([startAnvil({ chainId }), startAnvil({ chainId })]);
    client = createAnvilClient(main);
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
  }, 30_000);
  afterAll(() => Promise.all([main, stranger, ...extra].map((node) => node?.stop())));

  const config = (nodes: AnvilInstance[], quorum?: number): ChainConfig => ({
    chainId,
    name: 'base',
    rpcUrl: nodes[0].rpcUrl,
    nativeSymbol: 'ETH',
    confirmations: { blocks: 2 },
    ...(nodes.length > 1 ? { rpcUrls: nodes.slice(1).map((n) => n.rpcUrl) } : {}),
    ...(quorum !== undefined ? { quorum } : {}),
  });
  const depsOf = (store: MemoryEventStore, chains: ChainRegistry): TrackerDeps => ({
    store,
    chains,
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
  });
  const transfer: Hex = encodeFunctionData({
    abi: TestTokenArtifact.abi,
    functionName: 'transfer',
    args: [recipient, AMOUNT],
  });

  /** The wallet's transfer, signed (so the very same transaction can be sent again after a reorganisation). */
  async function signedTransfer(): Promise<{ raw: Hex; hash: Hash }> {
    const raw = await wallet.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: await client.getTransactionCount({ address: wallet.address, blockTag: 'pending' }),
      gas: 100_000n,
      maxFeePerGas: parseGwei('10'),
      maxPriorityFeePerGas: parseGwei('1'),
      to: token,
      data: transfer,
    });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    await client.waitForTransactionReceipt({ hash });
    return { raw, hash };
  }

  /** A prepared attempt of one no-op slice on 8453, its evidence reported (with the wallet's signature). */
  const attemptWith = (store: MemoryEventStore, attemptId: string, txHash: Hash, now: number) =>
    noopAttempt(store, {
      attemptId,
      txHash,
      now,
      chainId,
      token,
      wallet: wallet.address,
      recipient,
      amount: AMOUNT,
      data: transfer,
    });

  /** Tracking runs, each a second later, as the tracker would do them; the types of the events appended. */
  async function track(
    deps: TrackerDeps,
    attemptId: string,
    runs: { now: number; state: TrackingState },
    n = 3,
  ) {
    const before = (await deps.store.readStream(attemptStreamId(attemptId))).length;
    for (let i = 0; i < n; i++) {
      runs.now += 1_000;
      const { record } = (await loadAttempt(deps.store, attemptId, null))!;
      runs.state = (await trackAttempt(deps, record, runs.state, runs.now)).tracking;
    }
    const events = await deps.store.readStream(attemptStreamId(attemptId));
    // The facts, and AttemptSettled: the lifecycle steps before it are not what is under test.
    const steps = ['AttemptWalletSubmitted', 'AttemptProviderPending'];
    return events
      .slice(before)
      .map((e) => e.type)
      .filter((type) => !steps.includes(type));
  }
  const typesOf = async (store: MemoryEventStore, attemptId: string) =>
    (await store.readStream(attemptStreamId(attemptId))).map((e) => e.type);

  it('depth 0: seen, not settled; two blocks later: settled', async () => {
    const store = new MemoryEventStore();
    const deps = depsOf(store, new ChainRegistry([config([main])]));
    const { hash } = await signedTransfer();
    const runs = { now: Date.now(), state: initialTrackingState };
    await attemptWith(store, 'a-depth', hash, runs.now);

    expect(await track(deps, 'a-depth', runs)).toEqual(['SourceTransactionConfirmed', 'LegFillSeen']);
    expect((await loadAttempt(store, 'a-depth', null))!.record.status).not.toBe('settled');

    await client.mine({ blocks: 1 });
    expect(await track(deps, 'a-depth', runs)).toEqual([]); // one block deep: still awaiting
    await client.mine({ blocks: 1 });
    expect(await track(deps, 'a-depth', runs, 1)).toEqual(
      expect.arrayContaining(['LegSettled', 'AttemptSettled']),
    );
  });

  it('a reorganisation that removes the fill before it is final: back to tracking, recorded; the refill settles', async () => {
    const store = new MemoryEventStore();
    const deps = depsOf(store, new ChainRegistry([config([main])]));
    const { raw, hash } = await signedTransfer();
    const runs = { now: Date.now(), state: initialTrackingState };
    await attemptWith(store, 'a-reorg', hash, runs.now);
    expect(await track(deps, 'a-reorg', runs)).toEqual(['SourceTransactionConfirmed', 'LegFillSeen']);

    // The block holding the transfer is replaced by an empty one (anvil_reorg, depth 1, no transactions).
    await client.request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    expect(await client.getTransactionReceipt({ hash }).catch(() => null)).toBeNull();
    expect(await track(deps, 'a-reorg', runs, 1)).toEqual(['SourceTransactionReorged', 'LegFillReorged']);
    const back = (await loadAttempt(store, 'a-reorg', null))!.record;
    expect(back.status).not.toBe('settled');
    expect(back.slices[0].awaitingConfirmation).toBeNull();

    // The same transaction mined again: read again, seen again, and settled two blocks later.
    await client.sendRawTransaction({ serializedTransaction: raw });
    await client.waitForTransactionReceipt({ hash });
    expect(await track(deps, 'a-reorg', runs)).toEqual(['SourceTransactionConfirmed', 'LegFillSeen']);
    await client.mine({ blocks: 2 });
    expect(await track(deps, 'a-reorg', runs, 1)).toEqual(
      expect.arrayContaining(['LegSettled', 'AttemptSettled']),
    );
  }, 30_000);

  it('a reorganisation that moves the transfer to a later block: recorded as reorganised, then settled where it is now', async () => {
    const store = new MemoryEventStore();
    const deps = depsOf(store, new ChainRegistry([config([main])]));
    const { raw, hash } = await signedTransfer();
    const runs = { now: Date.now(), state: initialTrackingState };
    await attemptWith(store, 'a-moved', hash, runs.now);
    expect(await track(deps, 'a-moved', runs)).toEqual(['SourceTransactionConfirmed', 'LegFillSeen']);
    const before = await client.getTransactionReceipt({ hash });

    // Two blocks replaced, the transfer mined again in the second of them: same transaction, another block.
    await client.mine({ blocks: 1 });
    await client.request({ method: 'anvil_reorg' as never, params: [2, [[raw, 1]]] as never });
    const after = await client.getTransactionReceipt({ hash });
    expect(after.blockNumber).toBe(before.blockNumber + 1n);
    expect(await track(deps, 'a-moved', runs, 1)).toEqual(['SourceTransactionReorged', 'LegFillReorged']);
    expect(await track(deps, 'a-moved', runs)).toEqual(['SourceTransactionConfirmed', 'LegFillSeen']);
    await client.mine({ blocks: 2 });
    expect(await track(deps, 'a-moved', runs, 1)).toEqual(
      expect.arrayContaining(['LegSettled', 'AttemptSettled']),
    );
  }, 30_000);

  it('quorum 2: with a node that does not have the fill nothing settles; with a third that agrees it does', async () => {
    const { hash } = await signedTransfer();
    await client.mine({ blocks: 3 });
    const fork = await startAnvil({ chainId, forkUrl: main.rpcUrl });
    extra.push(fork);

    const split = new MemoryEventStore();
    const runs = { now: Date.now(), state: initialTrackingState };
    await attemptWith(split, 'a-split', hash, runs.now);
    const twoNodes = depsOf(split, new ChainRegistry([config([main, stranger], 2)]));
    await track(twoNodes, 'a-split', runs, 4);
    expect(await typesOf(split, 'a-split')).not.toContain('LegSettled');

    const agreed = new MemoryEventStore();
    const again = { now: Date.now(), state: initialTrackingState };
    await attemptWith(agreed, 'a-quorum', hash, again.now);
    const threeNodes = depsOf(agreed, new ChainRegistry([config([main, fork, stranger], 2)]));
    await track(threeNodes, 'a-quorum', again, 4);
    expect(await typesOf(agreed, 'a-quorum')).toEqual(
      expect.arrayContaining(['LegSettled', 'AttemptSettled']),
    );
  }, 30_000);

  it('a settled fill reorganised out afterwards is recorded (SettledFillVanished), once; the attempt stays settled', async () => {
    const store = new MemoryEventStore();
    const deps = depsOf(store, new ChainRegistry([config([main], 1)]));
    const { hash } = await signedTransfer();
    await client.mine({ blocks: 2 });
    const runs = { now: Date.now(), state: initialTrackingState };
    await attemptWith(store, 'a-late', hash, runs.now);
    await track(deps, 'a-late', runs, 3);
    expect(await typesOf(store, 'a-late')).toContain('AttemptSettled');
    expect(await recheckSettledFills(deps, 'a-late', runs.now)).toEqual([]);

    await client.request({ method: 'anvil_reorg' as never, params: [3, []] as never });
    expect(await recheckSettledFills(deps, 'a-late', runs.now + 60_000)).toEqual([
      { sliceId: 's1', destinationTxHash: hash, reason: '1 of 1 nodes have no receipt' },
    ]);
    expect(await recheckSettledFills(deps, 'a-late', runs.now + 120_000)).toEqual([]);
    const types = await typesOf(store, 'a-late');
    expect(types.filter((t) => t === 'SettledFillVanished')).toHaveLength(1);
    expect((await loadAttempt(store, 'a-late', null))!.record.status).toBe('settled');
  }, 30_000);

  describe('the SettlementTracker', () => {
    const sharing: WorkSharing = { instanceId: 'tracker-c', shardCount: 1, leaseTtlMs: 15_000 };
    const vanishedCount = async () =>
      (await settlementMetrics.settledFillsVanished.get()).values[0]?.value ?? 0;

    it('settles an awaited fill a second after it is final, and alarms when it vanishes after settled', async () => {
      Logger.overrideLogger(false);
      const store = new MemoryEventStore();
      const clock = new ManualClock(Date.now());
      const chains = new ChainRegistry([config([main])]);
      const tracker = new SettlementTracker(
        store,
        chains,
        {},
        clock,
        { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0 },
        sharing,
      );
      let restarted: SettlementTracker | undefined;
      const { hash } = await signedTransfer();
      await attemptWith(store, 'a-tracked', hash, clock.now());
      await tracker.onApplicationBootstrap();
      try {
        const types = () => typesOf(store, 'a-tracked');
        for (let i = 0; i < 4 && !(await types()).includes('LegFillSeen'); i++) {
          clock.advance(100);
          await tracker.tick();
        }
        expect(await types()).toContain('LegFillSeen');
        await client.mine({ blocks: 2 });
        clock.advance(1_000); // CONFIRMATION_RECHECK_MS (for this no-op leg also its verify pace)
        await tracker.tick();
        expect(await types()).toEqual(expect.arrayContaining(['LegSettled', 'AttemptSettled']));

        const before = await vanishedCount();
        clock.advance(SETTLED_RECHECK_EVERY_MS);
        await tracker.tick();
        await tracker.tick();
        expect((await types()).filter((t) => t === 'SettledFillVanished')).toEqual([]);

        // A restart (from the checkpoint) keeps the re-check window: the new instance finds the vanished fill.
        await tracker.onApplicationShutdown();
        restarted = new SettlementTracker(
          store,
          chains,
          {},
          clock,
          { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0 },
          sharing,
        );
        await restarted.onApplicationBootstrap();
        await client.request({ method: 'anvil_reorg' as never, params: [3, []] as never });
        clock.advance(SETTLED_RECHECK_EVERY_MS);
        await restarted.tick();
        await restarted.tick();
        expect((await types()).filter((t) => t === 'SettledFillVanished')).toHaveLength(1);
        expect(await vanishedCount()).toBe(before + 1);
        expect((await loadAttempt(store, 'a-tracked', null))!.record.status).toBe('settled');
      } finally {
        await tracker.onApplicationShutdown();
        await restarted?.onApplicationShutdown();
      }
    }, 30_000);
  });
});

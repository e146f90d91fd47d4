import { ChainRegistry } from '@svc/chains';
import { type ChainAction } from '@svc/contract';
import {
  type AttemptPreparedData,
  attemptSnapshot,
  attemptStreamId,
  DEFAULT_TRACKING_POLICY,
  initialTrackingState,
  transactionClaimStreamId,
} from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address, encodeFunctionData, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { registerWalletAttempt } from '../claims/source-rivals';
import { readSourceStep } from './read-source-step';
import { searchDeposits } from './search-deposits';
import { trackAttempt } from './track-attempt';
import { type TrackerDeps } from './tracker-deps';

/**
 * ADR 0009 (security review N-M6): two open attempts of one wallet, of two partners, whose prepared calls are
 * byte-identical (the same no-op `transfer(recipient, amount)`), and one transaction of the wallet executing it. On
 * anvil, with the event store's own claim streams: the deposit search claims it for neither, whichever runs first;
 * the evidence a partner reports for one attempt decides, and the other then reads it as another attempt's.
 */
const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000bEEF';

function preparedAttempt(
  attemptId: string,
  partnerId: string,
  preparedAt: number,
  call: { to: Address; data: Hex },
): AttemptPreparedData {
  const chainActions = [
    {
      chainId,
      provider: 'noop',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      calls: null,
      transactions: [
        { chainId, ...call, value: '0', callId: `chain:${chainId}:call:0`, callIndex: 0, quoteIndex: 0 },
      ],
      transactionCount: 1,
      quoteCount: 1,
      quotePlans: [],
      perLegPreview: [],
    },
  ] as unknown as ChainAction[];
  return {
    attemptId,
    intentSessionId: `is-${attemptId}`,
    partnerId,
    idempotencyKey: null,
    wallet: wallet.address,
    recipient,
    preparedAt,
    expiresAt: preparedAt + 30_000,
    evidenceDeadlineAt: preparedAt + 900_000,
    chainActions,
    walletAuthorization: {} as AttemptPreparedData['walletAuthorization'],
    legs: [],
    walletContext: null,
  };
}

describe('a source transaction two open attempts could own is decided by reported evidence (ADR 0009, N-M6)', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let chains: ChainRegistry;
  let transfer: { to: Address; data: Hex };
  let preparedAt: number;
  let tx: Hash;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' }]);
    const token = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    const mint = await client.writeContract({
      account: deployer,
      address: token,
      abi: TestTokenArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, 10n ** 12n],
    });
    await client.waitForTransactionReceipt({ hash: mint });
    preparedAt = Number((await client.getBlock()).timestamp) * 1000;
    transfer = {
      to: token,
      data: encodeFunctionData({
        abi: TestTokenArtifact.abi,
        functionName: 'transfer',
        args: [recipient, 5_000_000n],
      }),
    };
    tx = await client.sendTransaction({ account: wallet, ...transfer });
    await client.waitForTransactionReceipt({ hash: tx });
  }, 60_000);
  afterAll(async () => {
    await chains?.close();
    await anvil?.stop();
  });

  async function twoTwins(store: MemoryEventStore) {
    for (const [attemptId, partnerId] of [
      ['a-first', 'partner-a'],
      ['a-second', 'partner-b'],
    ]) {
      const data = preparedAttempt(attemptId, partnerId, preparedAt, transfer);
      // As prepare does: the wallet's registry first, then the attempt's own stream.
      await registerWalletAttempt(store, { wallet: wallet.address, attemptId, preparedAt });
      await store.append(
        attemptStreamId(attemptId),
        [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...data } }],
        { expectedRevision: 'no_stream' },
      );
    }
  }
  const deps = (store: MemoryEventStore): TrackerDeps => ({
    store,
    chains,
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
  });
  const record = async (store: MemoryEventStore, attemptId: string) =>
    (await loadAttempt(store, attemptId, null))!.record;
  const search = async (store: MemoryEventStore, attemptId: string) =>
    searchDeposits(deps(store), await record(store, attemptId), initialTrackingState, preparedAt + 60_000);
  /** The partner reports the transaction for the attempt, with the wallet's signature unless `signed` is false. */
  const report = async (
    store: MemoryEventStore,
    attemptId: string,
    { reportedAt = preparedAt + 20_000, signed = true }: { reportedAt?: number; signed?: boolean } = {},
  ) => {
    const evidence = {
      id: crypto.randomUUID(),
      type: 'EvidenceReported',
      data: {
        reportId: `r-${attemptId}`,
        reportedAt,
        submittedAt: null,
        chainResults: [{ chainId, bundleId: null, txHashes: [tx.toLowerCase()] }],
      },
    };
    const signature = {
      id: crypto.randomUUID(),
      type: 'AuthorizationSigned',
      data: { signature: `0x${'11'.repeat(65)}`, signer: wallet.address, signedAt: reportedAt },
    };
    await store.append(attemptStreamId(attemptId), signed ? [evidence, signature] : [evidence], {
      expectedRevision: 'any',
    });
  };
  /** The attempt's tracker reads the reported transaction. */
  const read = async (store: MemoryEventStore, attemptId: string) =>
    readSourceStep(deps(store), await record(store, attemptId), initialTrackingState, {
      chainId,
      txHash: tx,
      now: preparedAt + 21_000,
    });
  const owners = async (store: MemoryEventStore) =>
    (await store.readStream(transactionClaimStreamId(chainId, tx))).map(
      (e) => (e.data as { owner: string }).owner,
    );

  it.each([
    ['a-first', 'a-second'],
    ['a-second', 'a-first'],
  ])(
    'the search for %s, then for %s: claimed and recorded for neither, each names the other',
    async (one, two) => {
      const store = new MemoryEventStore();
      await twoTwins(store);
      const first = await search(store, one);
      const second = await search(store, two);
      expect([first.found, second.found]).toEqual([false, false]);
      expect(first.ambiguous).toEqual([{ chainId, txHash: tx, rivals: [two] }]);
      expect(second.ambiguous).toEqual([{ chainId, txHash: tx, rivals: [one] }]);
      expect((await record(store, one)).sourceTxs).toEqual([]);
      expect((await record(store, two)).sourceTxs).toEqual([]);
      expect(await store.readStream(transactionClaimStreamId(chainId, tx))).toEqual([]);
    },
  );

  it('the evidence partner B reports decides: its attempt claims and confirms it; A then reads it as taken', async () => {
    const store = new MemoryEventStore();
    await twoTwins(store);
    // A's search runs first and finds the transaction: it takes nothing.
    expect((await search(store, 'a-first')).found).toBe(false);
    await report(store, 'a-second');
    const b = await read(store, 'a-second');
    expect(b.record.sourceTxs.map((t) => [t.txHash, t.outcome])).toEqual([[tx.toLowerCase(), 'confirmed']]);
    expect(await owners(store)).toEqual(['source:a-second']);
    // A's search again: still not A's (B is open and prepared the same call).
    expect((await search(store, 'a-first')).found).toBe(false);
    // A's partner reports the same hash too (by mistake, or B's user's transaction seen on chain): another's.
    await report(store, 'a-first');
    const a = await read(store, 'a-first');
    expect(a.record.sourceTxs.map((t) => [t.outcome])).toEqual([['mismatched']]);
  });

  it("both report it, B first: A's tracker reads first and waits, B claims it, A then reads it as another's (N-M6)", async () => {
    const store = new MemoryEventStore();
    await twoTwins(store);
    await report(store, 'a-second', { reportedAt: preparedAt + 10_000 });
    await report(store, 'a-first', { reportedAt: preparedAt + 12_000 });
    const aFirst = await read(store, 'a-first');
    expect([aFirst.record.sourceTxs, aFirst.ambiguous, await owners(store)]).toEqual([[], ['a-second'], []]);
    const b = await read(store, 'a-second');
    expect(b.record.sourceTxs.map((t) => t.outcome)).toEqual(['confirmed']);
    expect(await owners(store)).toEqual(['source:a-second']);
    const aAgain = await read(store, 'a-first');
    expect(aAgain.record.sourceTxs.map((t) => t.outcome)).toEqual(['mismatched']);
  });

  it('an attempt the wallet did not sign never takes it from one it signed, even reported first', async () => {
    const store = new MemoryEventStore();
    await twoTwins(store);
    // Partner A names the transaction for its own attempt before B does, without the wallet's signature.
    await report(store, 'a-first', { reportedAt: preparedAt + 5_000, signed: false });
    await report(store, 'a-second', { reportedAt: preparedAt + 15_000 });
    expect((await read(store, 'a-first')).record.sourceTxs).toEqual([]);
    expect(await owners(store)).toEqual([]);
    expect((await read(store, 'a-second')).record.sourceTxs.map((t) => t.outcome)).toEqual(['confirmed']);
    expect(await owners(store)).toEqual(['source:a-second']);
  });

  it('unreported, the attempt expires at its evidence deadline and its status names the ambiguous transaction', async () => {
    const store = new MemoryEventStore();
    await twoTwins(store);
    const before = await record(store, 'a-first');
    const run = await trackAttempt(
      deps(store),
      before,
      initialTrackingState,
      before.prepared.evidenceDeadlineAt,
    );
    expect(run.record.status).toBe('expired');
    const events = await store.readStream(attemptStreamId('a-first'));
    expect(events.at(-1)).toMatchObject({
      type: 'AttemptExpired',
      data: { ambiguousSources: [{ chainId, txHash: tx }] },
    });
    const [chain] = attemptSnapshot(await record(store, 'a-first'), {
      chainName: () => 'Base',
    }).perChainStatus;
    expect([chain.status, chain.expiryReason?.code, chain.expiryReason?.txHashes]).toEqual([
      'expired',
      'ambiguous_source_transaction',
      [tx],
    ]);
    expect(await store.readStream(transactionClaimStreamId(chainId, tx))).toEqual([]);
  });

  it('with no other attempt of the wallet able to own it, the search claims it as before', async () => {
    const store = new MemoryEventStore();
    await twoTwins(store);
    // B ended (expired): it takes no evidence any more, so A is the only attempt the transaction can be.
    await store.append(
      attemptStreamId('a-second'),
      [{ id: crypto.randomUUID(), type: 'AttemptExpired', data: { at: preparedAt + 1_000 } }],
      { expectedRevision: 'any' },
    );
    const found = await search(store, 'a-first');
    expect([found.found, found.ambiguous]).toEqual([true, []]);
    const claims = await store.readStream(transactionClaimStreamId(chainId, tx));
    expect(claims.map((e) => (e.data as { owner: string }).owner)).toEqual(['source:a-first']);
  });
});

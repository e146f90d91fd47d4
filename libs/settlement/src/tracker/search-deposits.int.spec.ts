import { ChainRegistry } from '@svc/chains';
import { type ChainAction } from '@svc/contract';
import {
  type AttemptPreparedData,
  attemptStreamId,
  DEFAULT_TRACKING_POLICY,
  DEPOSIT_SEARCH_BACKOFF_MIN_MS,
  initialTrackingState,
} from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  createAnvilClient,
  type CountingRpcProxy,
  deployArtifact,
  findFreePort,
  startAnvil,
  startCountingRpcProxy,
  RelayDepositoryArtifact,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address, encodeFunctionData, type Hash, type Hex, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAttempt } from '../attempt-store/attempt-stream';
import {
  DEPOSIT_SEARCH_LOGS_RANGE,
  DEPOSIT_SEARCH_MAX_CANDIDATES,
  DEPOSIT_SEARCH_MAX_RPC_CALLS,
  searchDeposits,
} from './search-deposits';
import { trackAttempt } from './track-attempt';
import { type TrackerDeps } from './tracker-deps';

const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const otherUser = privateKeyToAccount(ANVIL_ACCOUNTS[2].privateKey);
const stranger: Address = '0x000000000000000000000000000000000000d00d';
const elsewhere: Address = '0x000000000000000000000000000000000000e15e';
const bridge: Address = '0x000000000000000000000000000000000000bEEF';
/** Spam: transfers of a token no prepared call touches, and of the prepared token to someone no call names. */
const SPAM_TOKEN_TRANSFERS = 300;
const STRANGER_TRANSFERS = 50;
/** The wallet's own transfers of the prepared token to the prepared recipient, none of the prepared amount. */
const LOOKALIKE_TRANSFERS = 40;
/** Native: other users' deposits into the same depository, and the wallet's plain ETH sends. */
const OTHER_NATIVE_DEPOSITS = 60;
const WALLET_ETH_SENDS = 40;

interface Call {
  to: Address;
  data: Hex;
  value: bigint;
}
const transferCall = (token: Address, to: Address, amount: bigint): Call => ({
  to: token,
  data: encodeFunctionData({ abi: TestTokenArtifact.abi, functionName: 'transfer', args: [to, amount] }),
  value: 0n,
});

function preparedAttempt(attemptId: string, preparedAt: number, call: Call): AttemptPreparedData {
  const chainActions = [
    {
      chainId,
      provider: 'relay',
      submitMethod: 'sendTransaction',
      atomicRequired: false,
      calls: null,
      transactions: [
        {
          chainId,
          to: call.to,
          data: call.data,
          value: call.value.toString(),
          callId: `chain:${chainId}:call:0`,
          callIndex: 0,
          quoteIndex: 0,
        },
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
    partnerId: 'p',
    idempotencyKey: null,
    wallet: wallet.address,
    recipient: wallet.address,
    preparedAt,
    expiresAt: preparedAt + 30_000,
    evidenceDeadlineAt: preparedAt + 60_000,
    chainActions,
    walletAuthorization: {
      domain: { name: 'x', version: '1' },
      types: {},
      primaryType: 'x',
      message: {},
    } as unknown as AttemptPreparedData['walletAuthorization'],
    legs: [],
    walletContext: null,
  };
}

describe('the deposit search before expiry is bounded (N-H1)', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let rpc: CountingRpcProxy;
  let token: Address;
  let spamToken: Address;
  let preparedAt: number;
  let deposit: Hash;
  let depository: Address;
  let nativeDeposit: Call;
  let nativeDepositHash: Hash;

  const depsOf = (store: MemoryEventStore, chains: ChainRegistry): TrackerDeps => ({
    store,
    chains,
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
  });
  const prepare = async (store: MemoryEventStore, data: AttemptPreparedData) => {
    await store.append(
      attemptStreamId(data.attemptId),
      [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...data } }],
      { expectedRevision: 'no_stream' },
    );
    return (await loadAttempt(store, data.attemptId, null))!.record;
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    rpc = await startCountingRpcProxy(anvil.rpcUrl);
    const usdc = { artifact: TestTokenArtifact, account: deployer, args: ['USD Coin', 'USDC', 6] };
    const spam = { artifact: TestTokenArtifact, account: deployer, args: ['Free Airdrop', 'SPAM', 18] };
    [token, spamToken] = [await deployArtifact(client, usdc), await deployArtifact(client, spam)];
    for (const [t, amount] of [
      [token, 10n ** 12n],
      [spamToken, 10n ** 24n],
    ] as const) {
      const hash = await client.writeContract({
        account: deployer,
        address: t,
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [wallet.address, amount],
      });
      await client.waitForTransactionReceipt({ hash });
    }
    const block = await client.getBlock();
    preparedAt = Number(block.timestamp) * 1000;
    const send = (address: Address, to: Address, amount: bigint) =>
      client.writeContract({
        account: wallet,
        address,
        abi: TestTokenArtifact.abi,
        functionName: 'transfer',
        args: [to, amount],
      });
    let last: Hash | null = null;
    for (let i = 0; i < SPAM_TOKEN_TRANSFERS; i++) last = await send(spamToken, stranger, BigInt(i + 1));
    for (let i = 0; i < STRANGER_TRANSFERS; i++) last = await send(token, stranger, BigInt(i + 1));
    deposit = await send(token, bridge, 777n);
    for (let i = 0; i < 20; i++) last = await send(spamToken, bridge, 1n); // spam to the prepared call's target
    for (let i = 0; i < LOOKALIKE_TRANSFERS; i++) last = await send(token, elsewhere, BigInt(i + 1));

    depository = await deployArtifact(client, { artifact: RelayDepositoryArtifact, account: deployer });
    const depositNative = (depositor: Address, id: string): Call => ({
      to: depository,
      value: 10n ** 15n,
      data: encodeFunctionData({
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositNative',
        args: [depositor, keccak256(toHex(id))],
      }),
    });
    for (let i = 0; i < OTHER_NATIVE_DEPOSITS; i++)
      last = await client.sendTransaction({
        account: otherUser,
        ...depositNative(otherUser.address, `o${i}`),
      });
    for (let i = 0; i < WALLET_ETH_SENDS; i++)
      last = await client.sendTransaction({ account: wallet, to: stranger, value: BigInt(i + 1) });
    nativeDeposit = depositNative(wallet.address, 'ours');
    nativeDepositHash = await client.sendTransaction({ account: wallet, ...nativeDeposit });
    await client.waitForTransactionReceipt({ hash: last! });
  }, 120_000);
  afterAll(async () => {
    await rpc?.close();
    await anvil?.stop();
  });

  it(`finds the real deposit among ${SPAM_TOKEN_TRANSFERS + STRANGER_TRANSFERS + 20 + LOOKALIKE_TRANSFERS} spam transfers, records only it and stays within its budget`, async () => {
    const chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: rpc.url, nativeSymbol: 'ETH' }]);
    try {
      const store = new MemoryEventStore();
      const record = await prepare(
        store,
        preparedAttempt('a-spam', preparedAt, transferCall(token, bridge, 777n)),
      );
      rpc.methods.length = 0;
      const found = await searchDeposits(
        depsOf(store, chains),
        record,
        initialTrackingState,
        preparedAt + 60_000,
      );
      expect(found.found).toBe(true);
      const after = (await loadAttempt(store, 'a-spam', null))!.record;
      expect(after.sourceTxs.map((t) => [t.txHash, t.outcome])).toEqual([[deposit, 'confirmed']]);
      const logsCalls = rpc.methods.filter((m) => m === 'eth_getLogs').length;
      const receiptReads = rpc.methods.filter((m) => m === 'eth_getTransactionReceipt').length;
      expect(rpc.methods.length).toBeLessThanOrEqual(DEPOSIT_SEARCH_MAX_RPC_CALLS);
      expect(receiptReads).toBeLessThanOrEqual(2 * DEPOSIT_SEARCH_MAX_CANDIDATES);
      expect(logsCalls).toBeGreaterThan(0);
      console.log(`N-H1 search: ${rpc.methods.length} RPC calls (${logsCalls} eth_getLogs)`);
    } finally {
      await chains.close();
    }
  });

  it(`reads at most ${DEPOSIT_SEARCH_MAX_CANDIDATES} candidates per attempt and records none that does not match`, async () => {
    const chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: rpc.url, nativeSymbol: 'ETH' }]);
    try {
      const store = new MemoryEventStore();
      // The wallet sent the prepared token to `elsewhere` 40 times, never the prepared amount: 40 candidates.
      const record = await prepare(
        store,
        preparedAttempt('a-cap', preparedAt, transferCall(token, elsewhere, 10n ** 9n)),
      );
      rpc.methods.length = 0;
      const found = await searchDeposits(
        depsOf(store, chains),
        record,
        initialTrackingState,
        preparedAt + 60_000,
      );
      expect(found.found).toBe(false);
      expect((await loadAttempt(store, 'a-cap', null))!.record.sourceTxs).toEqual([]);
      expect(rpc.methods.filter((m) => m === 'eth_getTransactionReceipt').length).toBeLessThanOrEqual(
        DEPOSIT_SEARCH_MAX_CANDIDATES,
      );
      expect(rpc.methods.length).toBeLessThanOrEqual(DEPOSIT_SEARCH_MAX_RPC_CALLS);
      console.log(`N-H1 capped search: ${rpc.methods.length} RPC calls`);
    } finally {
      await chains.close();
    }
  });

  it(`finds a native deposit by the depository's event naming the wallet, among ${OTHER_NATIVE_DEPOSITS} other users' deposits and ${WALLET_ETH_SENDS} plain sends`, async () => {
    const chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: rpc.url, nativeSymbol: 'ETH' }]);
    try {
      const store = new MemoryEventStore();
      const record = await prepare(store, preparedAttempt('a-native', preparedAt, nativeDeposit));
      rpc.methods.length = 0;
      const found = await searchDeposits(
        depsOf(store, chains),
        record,
        initialTrackingState,
        preparedAt + 60_000,
      );
      expect(found.found).toBe(true);
      const after = (await loadAttempt(store, 'a-native', null))!.record;
      expect(after.sourceTxs.map((t) => [t.txHash, t.outcome])).toEqual([[nativeDepositHash, 'confirmed']]);
      expect(rpc.methods.filter((m) => m === 'eth_getBlockByNumber').length).toBeLessThan(20); // no block scan
      expect(rpc.methods.length).toBeLessThanOrEqual(DEPOSIT_SEARCH_MAX_RPC_CALLS);
      console.log(`N-H1 native search: ${rpc.methods.length} RPC calls`);
    } finally {
      await chains.close();
    }
  });

  it('a search whose node fails still has the attempt deadlines evaluated, and is retried with backoff', async () => {
    // Nothing listens on this port: every read fails.
    const dead = `http://127.0.0.1:${await findFreePort()}`;
    const chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: dead, nativeSymbol: 'ETH' }]);
    try {
      const store = new MemoryEventStore();
      const data = preparedAttempt('a-down', preparedAt, transferCall(token, bridge, 777n));
      const record = await prepare(store, data);
      const atDeadline = data.evidenceDeadlineAt;
      const run = await trackAttempt(depsOf(store, chains), record, initialTrackingState, atDeadline);
      expect(run.record.status).toBe('prepared'); // the expiry waits for the search's retry …
      expect(run.tracking.depositSearchRetry).toEqual({
        failures: 1,
        nextAt: atDeadline + DEPOSIT_SEARCH_BACKOFF_MIN_MS,
      });
      // … but the tracking limit is enforced however the search fares.
      const late = data.preparedAt + DEFAULT_TRACKING_POLICY.trackingLimitMs;
      const ended = await trackAttempt(depsOf(store, chains), run.record, run.tracking, late);
      expect(ended.record.status).toBe('failed');
    } finally {
      await chains.close();
    }
  }, 60_000);

  it(`asks eth_getLogs in windows of at most ${DEPOSIT_SEARCH_LOGS_RANGE} blocks: a node that refuses wider ranges still has the deposit found`, async () => {
    // Last in this file: 2 500 more blocks put the deposit more than one window behind the latest.
    // Two seconds apart, as a chain's blocks are: the search starts at the block stamped at prepare, 2 500 blocks back.
    for (let i = 0; i < 5; i++) await client.mine({ blocks: 500, interval: 2 });
    const limited = await startCountingRpcProxy(anvil.rpcUrl, {
      maxLogsRange: Number(DEPOSIT_SEARCH_LOGS_RANGE),
    });
    const chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: limited.url, nativeSymbol: 'ETH' }]);
    try {
      const store = new MemoryEventStore();
      const record = await prepare(
        store,
        preparedAttempt('a-windows', preparedAt, transferCall(token, bridge, 777n)),
      );
      const found = await searchDeposits(
        depsOf(store, chains),
        record,
        initialTrackingState,
        preparedAt + 60_000,
      );
      expect(found.found).toBe(true);
      const after = (await loadAttempt(store, 'a-windows', null))!.record;
      expect(after.sourceTxs.map((t) => t.txHash)).toEqual([deposit]);
      expect(limited.logsRanges.reduce((a, b) => a + b, 0)).toBeGreaterThan(
        Number(DEPOSIT_SEARCH_LOGS_RANGE),
      );
      expect(limited.logsRanges.length).toBeGreaterThan(1);
      expect(Math.max(...limited.logsRanges)).toBeLessThanOrEqual(Number(DEPOSIT_SEARCH_LOGS_RANGE));
    } finally {
      await chains.close();
      await limited.close();
    }
  }, 60_000);
});

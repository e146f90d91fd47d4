import { ChainRegistry } from '@svc/chains';
import { DEFAULT_TRACKING_POLICY, FALLBACK_DEPOSIT_KEY } from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import { AcrossAdapter } from '@svc/providers';
import {
  ANVIL_ACCOUNTS,
  AcrossSpokePoolArtifact,
  NativeFillerArtifact,
  WrappedNativeArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  startTraceRefusingProxy,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { encodeFunctionData, erc20Abi, pad, zeroAddress, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { readFill, type ReadFillInput } from './read-fill';
import { type TrackerDeps } from './tracker-deps';

const chainId = 42161;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const solver = privateKeyToAccount(ANVIL_ACCOUNTS[5].privateKey);
// An EOA recipient: Across's SpokePool pays it ETH for a WETH output.
const recipient: Address = '0x000000000000000000000000000000000000bEEF';

/**
 * What a leg reads of a native payout made inside a contract (issue 24 N6, N7), end to end through the fill read, on
 * anvil with the sandbox's NativeFiller (Across's SpokePool sendValue / unwrap-and-send, Mayan's payEth) and
 * WrappedNative (WETH9): with a trace the leg settles with the exact amount the chain shows; without one it is
 * `estimated`, claimed, never a silent 0 or a second leg's.
 */
describe('readFill: native payouts by internal call', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let weth: Address;
  let wethAsEth: Hash;
  let internalNative: Hash;
  let proxy: Awaited<ReturnType<typeof startTraceRefusingProxy>>;

  const pay = async (functionName: 'payNative' | 'payWrappedAsNative', filler: Address, value: bigint) => {
    const hash = await client.sendTransaction({
      account: solver,
      to: filler,
      data: encodeFunctionData({
        abi: NativeFillerArtifact.abi,
        ...(functionName === 'payNative'
          ? { functionName, args: [recipient] }
          : { functionName, args: [weth, recipient] }),
      }),
      value,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    weth = await deployArtifact(client, {
      artifact: WrappedNativeArtifact,
      account: deployer,
      args: ['Wrapped Ether', 'WETH', 18],
    });
    const filler = await deployArtifact(client, { artifact: NativeFillerArtifact, account: deployer });
    wethAsEth = await pay('payWrappedAsNative', filler, 249_000_000n);
    internalNative = await pay('payNative', filler, 3_000n);
    proxy = await startTraceRefusingProxy(anvil.rpcUrl);
  });
  afterAll(async () => {
    proxy?.server.close();
    await anvil?.stop();
  });

  const deps = (store: MemoryEventStore, rpcUrl: string): TrackerDeps => ({
    store,
    chains: new ChainRegistry([{ chainId, name: 'Arbitrum', rpcUrl, nativeSymbol: 'ETH' }]),
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
  });
  const leg = (attemptId: string, token: Address, fillTxHash: Hash): ReadFillInput => ({
    attemptId,
    sliceId: 's-arb',
    recipient,
    chainId,
    token,
    fillTxHash,
    providerAmount: '250000000',
    expectedOutputRaw: '250000000',
    provider: null,
    deposit: null,
    now: Date.now(),
  });

  it('a WETH target paid as ETH to an EOA settles with the amount, delivered as the native currency (N7)', async () => {
    const store = new MemoryEventStore();
    expect(await readFill(deps(store, anvil.rpcUrl), leg('at_1', weth, wethAsEth))).toEqual({
      state: 'filled',
      destinationTxHash: wethAsEth,
      settledAmount: '249000000',
      amountBasis: 'exact',
      deliveredToken: zeroAddress,
      // Claimed as the transaction's sole delivery (no provider record): LegSettled names this key.
      depositKey: FALLBACK_DEPOSIT_KEY,
    });
    // The same fill is this leg's: another attempt's leg naming it is rejected.
    expect(await readFill(deps(store, anvil.rpcUrl), leg('at_2', weth, wethAsEth))).toMatchObject({
      state: 'fill_rejected',
      reason: 'the fill is already the delivery of another leg',
    });
  });

  it('without a trace, the WETH-as-ETH fill and a native payout by internal call are estimated and claimed (N6)', async () => {
    const store = new MemoryEventStore();
    for (const [token, hash] of [
      [weth, wethAsEth],
      [zeroAddress, internalNative],
    ] as const) {
      expect(await readFill(deps(store, proxy.url), leg('at_1', token, hash))).toEqual({
        state: 'filled',
        destinationTxHash: hash,
        settledAmount: '250000000',
        amountBasis: 'estimated',
        depositKey: FALLBACK_DEPOSIT_KEY,
      });
      expect(await readFill(deps(store, proxy.url), leg('at_2', token, hash))).toMatchObject({
        state: 'fill_rejected',
        reason: 'the fill is already the delivery of another leg',
      });
    }
  });

  it('with a trace, the native payout by internal call is exact', async () => {
    expect(
      await readFill(deps(new MemoryEventStore(), anvil.rpcUrl), leg('at_1', zeroAddress, internalNative)),
    ).toEqual({
      state: 'filled',
      destinationTxHash: internalNative,
      settledAmount: '3000',
      amountBasis: 'exact',
      depositKey: FALLBACK_DEPOSIT_KEY,
    });
  });

  it("an Across fill of a WETH output to an EOA through the pool: the FilledRelay's amount, delivered as ETH (S16, N7)", async () => {
    // The sandbox pool's fillRelay pays a WETH output to an EOA as the real SpokePool does: unwrap, send ETH.
    const pool = await deployArtifact(client, {
      artifact: AcrossSpokePoolArtifact,
      account: deployer,
      args: [weth],
    });
    const amount = 7_000_000n;
    const send = async (to: Address, data: `0x${string}`, value = 0n) =>
      client.waitForTransactionReceipt({
        hash: await client.sendTransaction({ account: solver, to, data, value }),
      });
    await send(weth, encodeFunctionData({ abi: WrappedNativeArtifact.abi, functionName: 'deposit' }), amount);
    await send(weth, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [pool, amount] }));
    const b32 = (a: Address) => pad(a, { size: 32 });
    const { transactionHash: fillTx } = await send(
      pool,
      encodeFunctionData({
        abi: AcrossSpokePoolArtifact.abi,
        functionName: 'fillRelay',
        args: [
          {
            depositor: b32(solver.address),
            recipient: b32(recipient),
            exclusiveRelayer: b32(zeroAddress),
            inputToken: b32(weth),
            outputToken: b32(weth),
            inputAmount: amount + 1n,
            outputAmount: amount,
            originChainId: 8453n,
            depositId: 77n,
            fillDeadline: 2_000_000_000,
            exclusivityDeadline: 0,
            message: '0x',
          },
          8453n,
          b32(solver.address),
        ],
      }),
    );
    const across = {
      adapter: new AcrossAdapter({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: null,
        integratorId: null,
        timeoutMs: 1_000,
        minPollIntervalMs: 10_000,
      }),
      context: { provider: 'across' as const, originChainId: 8453, destinationChainId: chainId },
    };
    const input = { ...leg('at_1', weth, fillTx), provider: across, providerAmount: null };
    const store = new MemoryEventStore();
    expect(await readFill(deps(store, anvil.rpcUrl), { ...input, deposit: { index: 0, ref: '77' } })).toEqual(
      {
        state: 'filled',
        destinationTxHash: fillTx,
        settledAmount: amount.toString(),
        amountBasis: 'exact',
        deliveredToken: zeroAddress,
        depositKey: 'across-8453-77',
      },
    );
    // Without a trace the ETH paid by the pool cannot be read: estimated, at the amount the pool's FilledRelay states
    // (not the provider API's figure, absent here), and claimed.
    const untraced = new MemoryEventStore();
    expect(await readFill(deps(untraced, proxy.url), { ...input, deposit: { index: 0, ref: '77' } })).toEqual(
      {
        state: 'filled',
        destinationTxHash: fillTx,
        settledAmount: amount.toString(),
        amountBasis: 'estimated',
        depositKey: 'across-8453-77',
      },
    );
    // Another deposit's leg finds no record of its own in this fill.
    expect(
      await readFill(deps(store, anvil.rpcUrl), {
        ...input,
        attemptId: 'at_2',
        deposit: { index: 0, ref: '78' },
      }),
    ).toMatchObject({ state: 'fill_rejected' });
  });
});

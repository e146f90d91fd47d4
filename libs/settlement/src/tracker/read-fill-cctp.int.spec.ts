import { ChainRegistry } from '@svc/chains';
import { DEFAULT_TRACKING_POLICY } from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import { AcrossAdapter, type DepositSelector, VouchedProviderAdapter } from '@svc/providers';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  BatchExecutorArtifact,
  type CctpBurnCall,
  cctpBurnV2Logs,
  type CctpLog,
  cctpReceiveV2Logs,
  ETHEREUM_TO_BASE_CCTP_ROUTE,
  createAnvilClient,
  deployArtifact,
  startAnvil,
} from '@svc/testing';
import { type Address, concat, encodeFunctionData, type Hash, type Hex, pad, parseEther, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { readFill, type ReadFillInput } from './read-fill';
import { type TrackerDeps } from './tracker-deps';

const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const ROUTE = ETHEREUM_TO_BASE_CCTP_ROUTE;
const WALLET: Address = '0x00000000000000000000000000000000000000a1';
const STRANGER: Address = '0x00000000000000000000000000000000000000b2';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const FINALIZER: Address = '0x00000000000000000000000000000000000000f1';
const nonce = (n: number): Hex => pad(toHex(n), { size: 32 });

/**
 * Log replayers: runtime code that emits one LOG3 (LOG4) whose topics are the first 3 (4) words of the calldata and
 * whose data is the rest. Set at Circle's addresses, they emit the CCTP logs exactly as the real contracts would, so
 * the fill transaction is a real one on a real chain, read back through the tracker's own fill read.
 *   LOG3: PUSH1 0x40 CALLDATALOAD PUSH1 0x20 CALLDATALOAD PUSH1 0 CALLDATALOAD PUSH1 0x60 CALLDATASIZE SUB
 *         DUP1 PUSH1 0x60 PUSH1 0 CALLDATACOPY PUSH1 0 LOG3 STOP (LOG4 likewise from word 3, data at 0x80).
 */
const LOG3_REPLAYER: Hex = '0x604035602035600035606036038060606000376000a300';
const LOG4_REPLAYER: Hex = '0x606035604035602035600035608036038060806000376000a400';

const burn = (depositor: Address, amount: bigint): CctpBurnCall => ({
  depositor,
  mintRecipient: RECIPIENT,
  amount,
  maxFee: 500n,
  destinationCaller: FINALIZER,
});
const legA = burn(WALLET, 1_000_000n);
const legB = burn(WALLET, 2_500_000n);
const stranger = burn(STRANGER, 7_000_000n);
/** The attempt's source transaction: two depositForBurn calls in one batch (its receipt's logs). */
const SOURCE = [...cctpBurnV2Logs(ROUTE, legA), ...cctpBurnV2Logs(ROUTE, legB)];

/**
 * Issue 24 item 1 residue on anvil: a CCTP finalizer transaction receiving three V2 messages to one recipient (leg A,
 * a stranger's, leg B), read through readFill as the tracker reads a leg's fill (receipt over RPC, the vouched Across
 * adapter's record, attributeFill, the per-deposit claim in an event store). Before: both legs fill_rejected
 * ("several transfers to the recipient …").
 */
describe('readFill: a CCTP finalizer batch of mints to one recipient, on anvil', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let fillTx: Hash;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    for (const address of [ROUTE.mintToken, ROUTE.destinationTokenMessenger]) {
      await client.setCode({ address, bytecode: LOG3_REPLAYER });
    }
    await client.setCode({ address: ROUTE.destinationTransmitter, bytecode: LOG4_REPLAYER });
    // The finalizer runs its receiveMessage calls in one transaction (relayer finalizer: Multicall3).
    const batch = await deployArtifact(client, { artifact: BatchExecutorArtifact, account: deployer });
    await client.setCode({ address: FINALIZER, bytecode: (await client.getCode({ address: batch }))! });
    await client.setBalance({ address: FINALIZER, value: parseEther('1') });
    await client.impersonateAccount({ address: FINALIZER });
    const logs = [
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(101), feeExecuted: 100n }, legA, FINALIZER),
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(102), feeExecuted: 0n }, stranger, FINALIZER),
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(103), feeExecuted: 250n }, legB, FINALIZER),
    ];
    fillTx = await client.sendTransaction({
      account: FINALIZER,
      chain: null,
      to: FINALIZER,
      data: encodeFunctionData({
        abi: BatchExecutorArtifact.abi,
        functionName: 'executeBatch',
        args: [logs.map((log) => ({ target: log.address, value: 0n, data: replay(log) }))],
      }),
    });
    const receipt = await client.waitForTransactionReceipt({ hash: fillTx });
    expect(receipt.logs).toHaveLength(logs.length);
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  const adapter = new VouchedProviderAdapter(
    new AcrossAdapter({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: null,
      integratorId: null,
      timeoutMs: 1000,
      minPollIntervalMs: 10_000,
    }),
    new Map([[chainId, { targets: [ROUTE.destinationTokenMessenger], spenders: [] }]]),
  );
  const deps = (store: MemoryEventStore): TrackerDeps => ({
    store,
    chains: new ChainRegistry([{ chainId, name: 'Base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' }]),
    adapters: {},
    policy: DEFAULT_TRACKING_POLICY,
    providerTimeoutMs: 5_000,
    receiptLogs: new Map(),
  });
  /** Leg `index` of the source transaction, its deposit selected as poll-provider-step selects it. */
  const leg = (attemptId: string, index: number, expected: string): ReadFillInput => {
    const deposit: DepositSelector = {
      index,
      ref: adapter.depositRefs(SOURCE)[index] ?? null,
      cctpBurn: adapter.depositCctpBurns(SOURCE)[index] ?? null,
    };
    return {
      attemptId,
      sliceId: `s-${index}`,
      recipient: RECIPIENT,
      chainId,
      token: ROUTE.mintToken,
      fillTxHash: fillTx,
      providerAmount: null,
      expectedOutputRaw: expected,
      provider: { adapter, context: { provider: 'across', originChainId: 1, destinationChainId: chainId } },
      deposit,
      now: Date.now(),
    };
  };

  it("both legs settle with their own mint; the stranger's is nobody's, and a leg's mint is claimed once", async () => {
    const store = new MemoryEventStore();
    const a = await readFill(deps(store), leg('at_1', 0, '999900'));
    expect(a).toEqual({
      state: 'filled',
      destinationTxHash: fillTx,
      settledAmount: '999900',
      amountBasis: 'exact',
      // The claim key LegSettled records (issue 24): CCTP's source domain and the attested nonce of leg A's message.
      depositKey: expect.stringMatching(/^cctp-0-0x[0-9a-f]{64}$/),
    });
    const b = await readFill(deps(store), leg('at_1', 1, '2499750'));
    expect(b).toEqual({
      state: 'filled',
      destinationTxHash: fillTx,
      settledAmount: '2499750',
      amountBasis: 'exact',
      depositKey: expect.stringMatching(/^cctp-0-0x[0-9a-f]{64}$/),
    });
    expect((a as { depositKey: string }).depositKey).not.toBe((b as { depositKey: string }).depositKey);
    // Another attempt's leg whose burn reads the same as leg A's: that message is already leg A's delivery.
    expect(await readFill(deps(store), leg('at_2', 0, '999900'))).toMatchObject({
      state: 'fill_rejected',
      reason: 'the fill is already the delivery of another leg',
    });
  });
});

/** The replayer's calldata for one log: its topics, then its data. */
function replay(log: CctpLog): Hex {
  return concat([...log.topics, log.data]);
}

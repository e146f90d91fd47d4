import {
  ANVIL_ACCOUNTS,
  BatchExecutorArtifact,
  WrappedNativeArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEventLogs,
  type Address,
  type Hash,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainClients, type SandboxPublicClient, type SandboxWalletClient } from '../rpc/chain-clients';
import { TokenSender } from './token-sender';
import { NativePayouts, paidAsNativeByAcross } from './native-payouts';

const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const solver = privateKeyToAccount(ANVIL_ACCOUNTS[7].privateKey);
const delegated = privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000bEEF';

interface CallFrame {
  to?: Address;
  value?: string;
  calls?: CallFrame[];
}

/** S15, S16: the sandbox pays native outputs from inside a contract, as Across's SpokePool and Mayan's Swift do. */
describe('NativePayouts', () => {
  let anvil: AnvilInstance;
  let anvilClient: AnvilClient;
  let client: SandboxPublicClient;
  let wallet: SandboxWalletClient;
  let weth: Address;
  const payouts = new NativePayouts();

  const mined = async (hash: Hash) => {
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };
  const balance = (address: Address) => client.getBalance({ address });
  const trace = async (hash: Hash): Promise<CallFrame> => {
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'debug_traceTransaction',
        params: [hash, { tracer: 'callTracer' }],
      }),
    });
    return ((await response.json()) as { result: CallFrame }).result;
  };
  const paidTo = (frame: CallFrame, to: Address): bigint =>
    (frame.calls ?? []).reduce(
      (sum, call) => sum + paidTo(call, to),
      frame.to?.toLowerCase() === to.toLowerCase() && frame.value ? BigInt(frame.value) : 0n,
    );

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    anvilClient = createAnvilClient(anvil);
    const chain = defineChain({
      id: 8453,
      name: 'Base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    client = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 });
    wallet = createWalletClient({
      account: solver,
      chain,
      transport: http(anvil.rpcUrl),
      pollingInterval: 50,
    });
    weth = await deployArtifact(anvilClient, {
      artifact: WrappedNativeArtifact,
      account: deployer,
      args: ['Wrapped Ether', 'WETH', 18],
    });
  });
  afterAll(() => anvil?.stop());

  it('pays a native output by an internal call: the transaction goes to the filler contract, the trace shows the value', async () => {
    const before = await balance(recipient);
    const hash = await payouts.pay(wallet, client, { kind: 'internal_call', to: recipient, amount: 1_234n });
    await mined(hash);
    expect((await balance(recipient)) - before).toBe(1_234n);
    const tx = await client.getTransaction({ hash });
    expect(tx.to?.toLowerCase()).not.toBe(recipient.toLowerCase());
    expect(paidTo(await trace(hash), recipient)).toBe(1_234n);
  });

  it('pays a WETH output as ETH: WETH logs a Withdrawal, the recipient gets ETH and no WETH', async () => {
    const before = await balance(recipient);
    const hash = await payouts.pay(wallet, client, {
      kind: 'wrapped_as_native',
      weth,
      to: recipient,
      amount: 5_000n,
    });
    const receipt = await mined(hash);
    expect((await balance(recipient)) - before).toBe(5_000n);
    const withdrawals = parseEventLogs({ abi: WrappedNativeArtifact.abi, logs: receipt.logs }).filter(
      (l) => l.eventName === 'Withdrawal',
    );
    expect(withdrawals).toHaveLength(1);
    expect(withdrawals[0]?.address.toLowerCase()).toBe(weth.toLowerCase());
    const transfers = parseEventLogs({ abi: WrappedNativeArtifact.abi, logs: receipt.logs }).filter(
      (l) => l.eventName === 'Transfer',
    );
    expect(transfers).toEqual([]);
  });

  it('deploys its filler contract once per chain and filler', async () => {
    const a = await payouts.pay(wallet, client, { kind: 'internal_call', to: recipient, amount: 1n });
    const b = await payouts.pay(wallet, client, { kind: 'internal_call', to: recipient, amount: 1n });
    await Promise.all([mined(a), mined(b)]);
    expect((await client.getTransaction({ hash: a })).to).toBe((await client.getTransaction({ hash: b })).to);
  });

  it("decides as Across's SpokePool: ETH to an EOA or an EIP-7702 wallet, WETH to another contract", async () => {
    const executor = await deployArtifact(anvilClient, {
      artifact: BatchExecutorArtifact,
      account: deployer,
    });
    const authorization = await anvilClient.signAuthorization({
      account: delegated,
      contractAddress: executor,
    });
    await mined(
      await anvilClient.sendTransaction({
        account: deployer,
        authorizationList: [authorization],
        to: delegated.address,
      }),
    );
    expect(await paidAsNativeByAcross(client, recipient)).toBe(true);
    expect(await paidAsNativeByAcross(client, delegated.address)).toBe(true);
    expect(await paidAsNativeByAcross(client, weth)).toBe(false);
  });

  it("the fillers pay native as their providers do: Across and Mayan by an internal call, Relay's solver directly", async () => {
    const clients = new ChainClients([
      { chainId: 8453, name: 'Base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' },
    ]);
    const key = (i: number) => ({ privateKey: ANVIL_ACCOUNTS[i].privateKey });
    const sender = new TokenSender(clients, { relay: key(6), across: key(7), mayan: key(8) });
    const native = {
      chainId: 8453,
      token: '0x0000000000000000000000000000000000000000',
      to: recipient,
    } as const;
    for (const [provider, internal] of [
      ['across', true],
      ['mayan', true],
      ['relay', false],
    ] as const) {
      const before = await balance(recipient);
      const hash = await sender.send({ provider, ...native, amount: 700n });
      expect((await balance(recipient)) - before).toBe(700n);
      const tx = await client.getTransaction({ hash });
      expect(tx.to?.toLowerCase() !== recipient.toLowerCase()).toBe(internal);
      expect(paidTo(await trace(hash), recipient)).toBe(700n);
    }
  });
});

import { ChainRegistry } from '@svc/chains';
import { type ChainAction, type ChainTransaction } from '@svc/contract';
import { type ExecutionCall } from '@svc/domain';
import {
  ANVIL_ACCOUNTS,
  MayanForwarderArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import {
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  zeroAddress,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildChainActions } from './build-chain-actions';
import {
  CHAIN_NAMES,
  PROTOCOL,
  approveCall,
  nativeDeposit,
  quotedLeg,
  quotedSlice,
  tokenDeposit,
} from './chain-actions.fixture';

const CHAIN = 1;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[9].privateKey);
const user = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = user.address;
const ONE_ETH = 10n ** 18n;

describe('buildChainActions: approvals against the chain', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let chains: ChainRegistry;
  let usdc: Address;
  let usdt: Address;
  let forwarder: Address;
  let snapshot: Hex;

  const mined = async (hash: Promise<Hash>) =>
    (await client.waitForTransactionReceipt({ hash: await hash })).status;
  const setAllowance = async (token: Address, amount: bigint) =>
    expect(
      await mined(
        client.writeContract({
          account: user,
          address: token,
          abi: erc20Abi,
          functionName: 'approve',
          args: [forwarder, amount],
        }),
      ),
    ).toBe('success');
  const balanceOf = (token: Address, account: Address) =>
    client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] });
  /** Sends the transactions in order as the wallet; `gas` forces one that would fail estimation onto the chain. */
  const execute = async (transactions: readonly ChainTransaction[], gas?: bigint) => {
    const statuses: string[] = [];
    for (const tx of transactions) {
      const hash = client.sendTransaction({
        account: user,
        to: tx.to as Address,
        data: tx.data as Hex,
        value: BigInt(tx.value),
        gas: gas ?? (tx.gas ? BigInt(tx.gas) : undefined),
      });
      statuses.push(await mined(hash));
    }
    return statuses;
  };

  const sources = () => [
    { chainId: CHAIN, address: usdc, amount: '1000000000', symbol: 'USDC', decimals: 6, usdValue: '1000' },
    { chainId: CHAIN, address: usdt, amount: '1000000000', symbol: 'USDT', decimals: 6, usdValue: '1000' },
    { chainId: CHAIN, address: zeroAddress, amount: '10000000000000000000', symbol: 'ETH', decimals: 18 },
  ];
  const TARGETS = ['t0', 't1'].map((targetId) => ({
    targetId,
    chainId: 8453,
    address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    decimals: 6,
  }));
  /** One leg per entry (targets t0, t1), each with one slice of the given source and calls. */
  const build = (...slices: { sourceIndex: number; amount: bigint; calls: ExecutionCall[] }[]) =>
    buildChainActions(
      {
        wallet,
        recipient: wallet,
        legs: slices.map(({ sourceIndex, amount, calls }, i) =>
          quotedLeg(TARGETS[i].targetId, 'mayan', [
            quotedSlice({
              sliceId: `${TARGETS[i].targetId}:${sourceIndex}`,
              sourceIndex,
              source: sources()[sourceIndex],
              amount,
              provider: 'mayan',
              calls,
              expectedOutputRaw: amount,
            }),
          ]),
        ),
        targets: TARGETS.slice(0, slices.length),
        sources: sources(),
        chainName: (chainId) => CHAIN_NAMES[chainId],
        walletCapabilities: {},
      },
      { chains },
    );
  const only = (actions: ChainAction[]) => {
    expect(actions).toHaveLength(1);
    expect(actions[0].chainId).toBe(CHAIN);
    return actions[0].transactions!;
  };
  /** The wire fields of a stored or built call, to compare what is handed out with what was stored. */
  const wire = ({
    to,
    data,
    value,
    gas,
  }: {
    to: string;
    data: string;
    value: string;
    gas?: string | null;
  }) => ({
    to,
    data,
    value,
    gas: gas ?? null,
  });
  const built = (token: Address, amount: bigint) => ({
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [forwarder, amount] }),
    value: '0',
    gas: null,
  });

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: CHAIN });
    client = createAnvilClient(anvil);
    usdc = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    usdt = await deployArtifact(client, { artifact: TetherTokenArtifact, account: deployer });
    forwarder = await deployArtifact(client, { artifact: MayanForwarderArtifact, account: deployer });
    for (const token of [usdc, usdt]) {
      await mined(
        client.writeContract({
          account: deployer,
          address: token,
          abi: TestTokenArtifact.abi,
          functionName: 'mint',
          args: [wallet, 1_000_000_000n],
        }),
      );
    }
    chains = new ChainRegistry([
      { chainId: CHAIN, name: 'ethereum', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' },
    ]);
  });
  afterAll(() => anvil?.stop());
  beforeEach(async () => {
    snapshot = await client.snapshot();
  });
  afterEach(() => client.revert({ id: snapshot }));

  it('builds the approval itself when the allowance is zero (no provider bytes or gas hint), and the calls execute', async () => {
    const approve = approveCall(CHAIN, usdc, forwarder, 100n, '46000');
    const deposit = tokenDeposit(CHAIN, forwarder, usdc, 100n, '150000');

    const transactions = only(await build({ sourceIndex: 0, amount: 100n, calls: [approve, deposit] }));

    expect(transactions).toEqual([
      { chainId: CHAIN, ...built(usdc, 100n), callId: 'chain:1:call:0', callIndex: 0, quoteIndex: 0 },
      { chainId: CHAIN, ...wire(deposit), callId: 'chain:1:call:1', callIndex: 1, quoteIndex: 0 },
    ]);
    expect(await execute(transactions)).toEqual(['success', 'success']);
    expect(await balanceOf(usdc, forwarder)).toBe(100n);
  });

  it('hands out no approval when the allowance already covers it', async () => {
    await setAllowance(usdc, 1000n);
    const deposit = tokenDeposit(CHAIN, forwarder, usdc, 100n);

    const transactions = only(
      await build({
        sourceIndex: 0,
        amount: 100n,
        calls: [approveCall(CHAIN, usdc, forwarder, 100n), deposit],
      }),
    );

    expect(transactions.map(wire)).toEqual([wire(deposit)]);
    expect(transactions[0]).toMatchObject({ callIndex: 0, quoteIndex: 0 });
    expect(await execute(transactions)).toEqual(['success']);
  });

  it('approves the sum once, before the first deposit, when two slices approve the same pair', async () => {
    const first = tokenDeposit(CHAIN, forwarder, usdc, 40n);
    const second = tokenDeposit(CHAIN, forwarder, usdc, 60n);

    const actions = await build(
      { sourceIndex: 0, amount: 40n, calls: [approveCall(CHAIN, usdc, forwarder, 40n), first] },
      { sourceIndex: 0, amount: 60n, calls: [approveCall(CHAIN, usdc, forwarder, 60n), second] },
    );

    const transactions = only(actions);
    expect(transactions.map(wire)).toEqual([built(usdc, 100n), wire(first), wire(second)]);
    expect(transactions.map((tx) => tx.quoteIndex)).toEqual([0, 0, 1]);
    expect(actions[0].quotePlans).toEqual([
      expect.objectContaining({ callStart: 0, callCount: 2, quoteIndex: 0, primaryCallIndex: 1 }),
      expect.objectContaining({ callStart: 2, callCount: 1, quoteIndex: 1, primaryCallIndex: 2 }),
    ]);
    expect(await execute(transactions)).toEqual(['success', 'success', 'success']);
    expect(await balanceOf(usdc, forwarder)).toBe(100n);
  });

  it('never hands out a stored unlimited approval: it approves exactly what the slices pull, and that executes', async () => {
    const max = approveCall(CHAIN, usdc, forwarder, maxUint256, '60000');
    const first = tokenDeposit(CHAIN, forwarder, usdc, 40n);
    const second = tokenDeposit(CHAIN, forwarder, usdc, 60n);

    const transactions = only(
      await build(
        { sourceIndex: 0, amount: 40n, calls: [approveCall(CHAIN, usdc, forwarder, 40n), first] },
        { sourceIndex: 0, amount: 60n, calls: [max, second] },
      ),
    );

    // Placed before the first deposit that needs it.
    expect(transactions.map(wire)).toEqual([built(usdc, 100n), wire(first), wire(second)]);
    expect(transactions.map((tx) => tx.quoteIndex)).toEqual([0, 0, 1]);
    expect(await execute(transactions)).toEqual(['success', 'success', 'success']);
    expect(
      await client.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [wallet, forwarder],
      }),
    ).toBe(0n);
  });

  it('caps each stored approval at its own slice amount, a lower one (Mayan: effectiveAmountIn) as it is', async () => {
    const transactions = only(
      await build(
        {
          sourceIndex: 0,
          amount: 40n,
          calls: [
            approveCall(CHAIN, usdc, forwarder, maxUint256 - 1n),
            tokenDeposit(CHAIN, forwarder, usdc, 40n),
          ],
        },
        {
          sourceIndex: 0,
          amount: 60n,
          calls: [approveCall(CHAIN, usdc, forwarder, 55n), tokenDeposit(CHAIN, forwarder, usdc, 55n)],
        },
      ),
    );

    expect(wire(transactions[0])).toEqual(built(usdc, 95n));
    expect(transactions).toHaveLength(3);
  });

  it('resets a short non-zero USDT allowance to 0 first; without the reset the approval reverts', async () => {
    await setAllowance(usdt, 5n);
    const approve = approveCall(CHAIN, usdt, forwarder, 100n);
    const deposit = tokenDeposit(CHAIN, forwarder, usdt, 100n);

    const actions = await build({ sourceIndex: 1, amount: 100n, calls: [approve, deposit] });

    const transactions = only(actions);
    expect(transactions.map(wire)).toEqual([built(usdt, 0n), built(usdt, 100n), wire(deposit)]);
    expect(transactions.map((tx) => tx.callIndex)).toEqual([0, 1, 2]);
    expect(actions[0].quotePlans).toEqual([
      expect.objectContaining({ callStart: 0, callCount: 3, transactionCount: 3, primaryCallIndex: 2 }),
    ]);
    const beforeExecution = await client.snapshot();
    expect(await execute(transactions)).toEqual(['success', 'success', 'success']);
    expect(await balanceOf(usdt, forwarder)).toBe(100n);

    await client.revert({ id: beforeExecution });
    expect(await execute(transactions.slice(1), 300_000n)).toEqual(['reverted', 'reverted']);
  });

  it('keeps exactly one reset when the provider stored its own, and drops it when the allowance is zero', async () => {
    const reset = approveCall(CHAIN, usdt, forwarder, 0n);
    const approve = approveCall(CHAIN, usdt, forwarder, 100n);
    const deposit = tokenDeposit(CHAIN, forwarder, usdt, 100n);
    const slice = { sourceIndex: 1, amount: 100n, calls: [reset, approve, deposit] };

    expect(only(await build(slice)).map(wire)).toEqual([wire(approve), wire(deposit)]);

    await setAllowance(usdt, 5n);
    const transactions = only(await build(slice));
    expect(transactions.map(wire)).toEqual([built(usdt, 0n), wire(approve), wire(deposit)]);
    expect(await execute(transactions)).toEqual(['success', 'success', 'success']);
  });

  it('does not reset a short non-zero allowance of a token that accepts the change', async () => {
    await setAllowance(usdc, 5n);
    const approve = approveCall(CHAIN, usdc, forwarder, 100n);
    const deposit = tokenDeposit(CHAIN, forwarder, usdc, 100n);

    const transactions = only(await build({ sourceIndex: 0, amount: 100n, calls: [approve, deposit] }));

    expect(transactions.map(wire)).toEqual([wire(approve), wire(deposit)]);
    expect(await execute(transactions)).toEqual(['success', 'success']);
  });

  it('approves only the pair that is short, each before its own slice', async () => {
    await setAllowance(usdc, 1000n);
    const usdcDeposit = tokenDeposit(CHAIN, forwarder, usdc, 100n);
    const usdtApprove = approveCall(CHAIN, usdt, forwarder, 100n);
    const usdtDeposit = tokenDeposit(CHAIN, forwarder, usdt, 100n);

    const transactions = only(
      await build(
        { sourceIndex: 0, amount: 100n, calls: [approveCall(CHAIN, usdc, forwarder, 100n), usdcDeposit] },
        { sourceIndex: 1, amount: 100n, calls: [usdtApprove, usdtDeposit] },
      ),
    );

    expect(transactions.map(wire)).toEqual([wire(usdcDeposit), wire(usdtApprove), wire(usdtDeposit)]);
    expect(transactions.map((tx) => tx.quoteIndex)).toEqual([0, 1, 1]);
    expect(await execute(transactions)).toEqual(['success', 'success', 'success']);
  });

  it('hands out a native deposit alone, with its value, and it executes', async () => {
    const deposit = nativeDeposit(CHAIN, forwarder, ONE_ETH);
    const before = await client.getBalance({ address: PROTOCOL });

    const transactions = only(await build({ sourceIndex: 2, amount: ONE_ETH, calls: [deposit] }));

    expect(transactions.map(wire)).toEqual([wire(deposit)]);
    expect(transactions[0].value).toBe('1000000000000000000');
    expect(await execute(transactions)).toEqual(['success']);
    expect((await client.getBalance({ address: PROTOCOL })) - before).toBe(ONE_ETH);
  });
});

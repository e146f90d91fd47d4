import { ChainRegistry } from '@svc/chains';
import { type ChainAction } from '@svc/contract';
import { type ExecutionCall, type QuotedLegExecution } from '@svc/domain';
import {
  ANVIL_ACCOUNTS,
  TestTokenArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { encodeFunctionData, erc20Abi, zeroAddress, type Address, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildChainActions } from './build-chain-actions';
import { type ChainActionsInput } from './chain-actions-input';
import {
  CHAIN_NAMES,
  approveCall,
  nativeDeposit,
  quotedLeg,
  quotedSlice,
  tokenDeposit,
} from './chain-actions.fixture';
import { InvalidQuotedExecutionError } from './invalid-quoted-execution.error';

const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[9].privateKey);
const user = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = user.address;
const recipient = ANVIL_ACCOUNTS[1].address;
const DEPOSITORY: Address = '0x00000000000000000000000000000000000de905';
const SPOKE_POOL: Address = '0x0000000000000000000000000000000000005b00';
const ETH = 10n ** 18n;

/**
 * One anvil node plays chains 1, 8453 and 42161 (the registry points all three at it): what is under test is
 * how calls are laid out per chain id, and the tokens, allowances and balances read the same on any of them.
 */
describe('buildChainActions: layout, no-op transfers, submit method and previews', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let chains: ChainRegistry;
  let usdc: Address;
  let usdt: Address;
  let snapshot: Hex;

  const mined = async (hash: Promise<Hash>) =>
    (await client.waitForTransactionReceipt({ hash: await hash })).status;
  const balanceOf = (token: Address, account: Address) =>
    client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] });

  /** 0 ETH on base, 1 USDC on ethereum (split 600/400 between the targets), 2 USDC on arbitrum (no-op for t0),
   *  3 USDT on ethereum without symbol or USD value, 4 ETH on arbitrum (no-op for t1). */
  const sources = () => [
    {
      chainId: 8453,
      address: zeroAddress,
      amount: '1000000000000000000',
      symbol: 'ETH',
      decimals: 18,
      usdValue: '3000',
    },
    { chainId: 1, address: usdc, amount: '1000000000', symbol: 'USDC', decimals: 6, usdValue: '1000' },
    { chainId: 42161, address: usdc, amount: '500000000', symbol: 'USDC', decimals: 6, usdValue: '500' },
    { chainId: 1, address: usdt, amount: '200000000', decimals: 6 },
    {
      chainId: 42161,
      address: zeroAddress,
      amount: '2000000000000000000',
      symbol: 'ETH',
      decimals: 18,
      usdValue: '6000',
    },
  ];
  const targets = () => [
    { targetId: 't0', chainId: 42161, address: usdc, symbol: 'USDC', decimals: 6 },
    { targetId: 't1', chainId: 42161, address: zeroAddress, symbol: 'ETH', decimals: 18 },
  ];
  const slice = (
    sourceIndex: number,
    targetId: string,
    provider: string,
    amount: bigint,
    calls: ExecutionCall[],
    out: bigint,
  ) =>
    quotedSlice({
      sliceId: `${targetId}:${sourceIndex}`,
      sourceIndex,
      source: sources()[sourceIndex],
      amount,
      provider,
      calls,
      expectedOutputRaw: out,
    });
  const calls = () => ({
    baseEth: nativeDeposit(8453, DEPOSITORY, ETH),
    relayApprove: approveCall(1, usdc, DEPOSITORY, 600_000000n, '50000'),
    relayDeposit: tokenDeposit(1, DEPOSITORY, usdc, 600_000000n, '120000'),
    acrossApprove: approveCall(1, usdc, SPOKE_POOL, 400_000000n),
    acrossDeposit: tokenDeposit(1, SPOKE_POOL, usdc, 400_000000n),
    usdtApprove: approveCall(1, usdt, SPOKE_POOL, 200_000000n),
    usdtDeposit: tokenDeposit(1, SPOKE_POOL, usdt, 200_000000n),
  });
  const legs = (): QuotedLegExecution[] => {
    const c = calls();
    return [
      quotedLeg(
        't0',
        'relay',
        [
          slice(0, 't0', 'relay', ETH, [c.baseEth], 2_990_000000n),
          slice(1, 't0', 'relay', 600_000000n, [c.relayApprove, c.relayDeposit], 599_000000n),
        ],
        [{ sliceId: 't0:2', sourceIndex: 2, chainId: 42161, token: usdc, rawAmount: '500000000' }],
      ),
      quotedLeg(
        't1',
        'across',
        [
          slice(1, 't1', 'across', 400_000000n, [c.acrossApprove, c.acrossDeposit], 133_000000000000000n),
          slice(3, 't1', 'across', 200_000000n, [c.usdtApprove, c.usdtDeposit], 66_000000000000000n),
        ],
        [
          {
            sliceId: 't1:4',
            sourceIndex: 4,
            chainId: 42161,
            token: zeroAddress,
            rawAmount: '2000000000000000000',
          },
        ],
      ),
    ];
  };
  const input = (overrides: Partial<ChainActionsInput> = {}): ChainActionsInput => ({
    wallet,
    recipient,
    legs: legs(),
    targets: targets(),
    sources: sources(),
    chainName: (chainId) => CHAIN_NAMES[chainId],
    walletCapabilities: {},
    ...overrides,
  });
  const build = (overrides: Partial<ChainActionsInput> = {}) =>
    buildChainActions(input(overrides), { chains });
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
  const callsOf = (action: ChainAction) => (action.calls ?? action.transactions)!;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    client = createAnvilClient(anvil);
    usdc = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    usdt = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['Tether USD', 'USDT', 6],
    });
    await mined(
      client.writeContract({
        account: deployer,
        address: usdc,
        abi: TestTokenArtifact.abi,
        functionName: 'mint',
        args: [wallet, 1_000_000000n],
      }),
    );
    chains = new ChainRegistry(
      [1, 8453, 42161].map((chainId) => ({
        chainId,
        name: CHAIN_NAMES[chainId],
        rpcUrl: anvil.rpcUrl,
        nativeSymbol: 'ETH',
      })),
    );
  });
  afterAll(() => anvil?.stop());
  beforeEach(async () => {
    snapshot = await client.snapshot();
  });
  afterEach(() => client.revert({ id: snapshot }));

  it('gives one action per chain in order of first appearance, calls in execution order, numbered per chain', async () => {
    const c = calls();

    const actions = await build();

    expect(actions.map((a) => a.chainId)).toEqual([8453, 1, 42161]);
    const [base, ethereum, arbitrum] = actions;
    expect(callsOf(base).map(wire)).toEqual([wire(c.baseEth)]);
    // Approvals are built here (same bytes for these exact amounts), so the provider's gas hint is not kept.
    expect(callsOf(ethereum).map(wire)).toEqual(
      [
        { ...c.relayApprove, gas: null },
        c.relayDeposit,
        c.acrossApprove,
        c.acrossDeposit,
        c.usdtApprove,
        c.usdtDeposit,
      ].map(wire),
    );
    for (const action of actions) {
      expect(callsOf(action).map((call) => [call.callIndex, call.callId])).toEqual(
        callsOf(action).map((_, i) => [i, `chain:${action.chainId}:call:${i}`]),
      );
      expect(action.transactionCount).toBe(callsOf(action).length);
      expect(action.quoteCount).toBe(action.quotePlans.length);
    }
    expect(callsOf(ethereum).map((call) => call.quoteIndex)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(ethereum.provider).toBe('relay+across');
    expect(ethereum.quotePlans).toEqual([
      {
        provider: 'relay',
        callCount: 2,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 't0',
        transactionCount: 2,
        primaryCallIndex: 1,
        sourceTokenCount: 1,
      },
      {
        provider: 'across',
        callCount: 2,
        callStart: 2,
        quoteIndex: 1,
        outputTargetId: 't1',
        transactionCount: 2,
        primaryCallIndex: 3,
        sourceTokenCount: 1,
      },
      {
        provider: 'across',
        callCount: 2,
        callStart: 4,
        quoteIndex: 2,
        outputTargetId: 't1',
        transactionCount: 2,
        primaryCallIndex: 5,
        sourceTokenCount: 1,
      },
    ]);
    expect(base).toMatchObject({ provider: 'relay', quoteCount: 1, transactionCount: 1 });
    expect(base.quotePlans).toEqual([
      {
        provider: 'relay',
        callCount: 1,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 't0',
        transactionCount: 1,
        primaryCallIndex: 0,
        sourceTokenCount: 1,
      },
    ]);
    expect(arbitrum.provider).toBe('direct');
  });

  it('delivers no-op slices to another recipient with plain transfers at the end of the chain, which execute', async () => {
    const [, , arbitrum] = await build();

    const transactions = arbitrum.transactions!;
    expect(transactions).toEqual([
      {
        chainId: 42161,
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 500_000000n] }),
        value: '0',
        gas: null,
        callId: 'chain:42161:call:0',
        callIndex: 0,
        quoteIndex: 0,
      },
      {
        chainId: 42161,
        to: recipient,
        data: '0x',
        value: '2000000000000000000',
        gas: null,
        callId: 'chain:42161:call:1',
        callIndex: 1,
        quoteIndex: 1,
      },
    ]);
    expect(arbitrum.quotePlans).toEqual([
      {
        provider: 'direct',
        callCount: 1,
        callStart: 0,
        quoteIndex: 0,
        outputTargetId: 't0',
        transactionCount: 1,
        primaryCallIndex: 0,
        sourceTokenCount: 1,
      },
      {
        provider: 'direct',
        callCount: 1,
        callStart: 1,
        quoteIndex: 1,
        outputTargetId: 't1',
        transactionCount: 1,
        primaryCallIndex: 1,
        sourceTokenCount: 1,
      },
    ]);

    const ethBefore = await client.getBalance({ address: recipient });
    for (const tx of transactions) {
      const hash = client.sendTransaction({
        account: user,
        to: tx.to as Address,
        data: tx.data as Hex,
        value: BigInt(tx.value),
      });
      expect(await mined(hash)).toBe('success');
    }
    expect(await balanceOf(usdc, recipient)).toBe(500_000000n);
    expect((await client.getBalance({ address: recipient })) - ethBefore).toBe(2n * ETH);
  });

  it('puts a no-op transfer after every provider call of its chain', async () => {
    const onEthereum = { sliceId: 't0:1', sourceIndex: 1, chainId: 1, token: usdc, rawAmount: '600000000' };
    const [first, ...rest] = legs();

    const actions = await build({
      legs: [{ ...first, slices: [first.slices[0]], noopSlices: [onEthereum] }, ...rest],
    });

    const ethereum = actions.find((a) => a.chainId === 1)!;
    expect(callsOf(ethereum).map((call) => call.data.slice(0, 10))).toEqual([
      '0x095ea7b3',
      expect.any(String),
      '0x095ea7b3',
      expect.any(String),
      '0xa9059cbb',
    ]);
    expect(ethereum.quotePlans.map((p) => [p.provider, p.outputTargetId, p.callStart])).toEqual([
      ['across', 't1', 0],
      ['across', 't1', 2],
      ['direct', 't0', 4],
    ]);
    expect(ethereum.provider).toBe('across+direct');
    expect(ethereum.perLegPreview.map((p) => [p.legIndex, p.provider])).toEqual([
      [1, 'across'],
      [1, 'across'],
      [0, 'direct'],
    ]);
  });

  it('adds nothing for no-op slices when the recipient is the wallet, in any letter case', async () => {
    const actions = await build({ recipient: wallet.toLowerCase() as Address });

    expect(actions.map((a) => a.chainId)).toEqual([8453, 1]);
    expect(actions.flatMap((a) => a.quotePlans.map((p) => p.provider))).not.toContain('direct');
  });

  it('uses wallet_sendCalls only on chains the wallet reported atomic support for', async () => {
    const actions = await build({
      walletCapabilities: {
        '0x1': { atomic: { status: 'supported' } },
        '0x2105': { atomic: { status: 'unsupported' } },
      },
    });

    const [base, ethereum, arbitrum] = actions;
    expect(ethereum).toMatchObject({
      submitMethod: 'wallet_sendCalls',
      atomicRequired: true,
      transactions: null,
    });
    expect(ethereum.calls).toHaveLength(6);
    expect(ethereum.calls![0]).not.toHaveProperty('chainId');
    for (const action of [base, arbitrum]) {
      expect(action).toMatchObject({ submitMethod: 'sendTransaction', atomicRequired: false, calls: null });
      expect(action.transactions!.every((tx) => tx.chainId === action.chainId)).toBe(true);
    }
    // The same calls, whichever way they are handed out.
    const sequential = (await build())[1];
    expect(sequential.transactions!.map(({ chainId: _, ...call }) => call)).toEqual(ethereum.calls);
  });

  it.each([
    ['{}', {}],
    ['undefined', undefined],
    ['null', null],
    ['an array', [{ '0x1': { atomic: { status: 'supported' } } }]],
  ])('sends every chain sequentially when the capabilities are %s', async (_, walletCapabilities) => {
    const actions = await build({ walletCapabilities });

    expect(actions.map((a) => [a.submitMethod, a.atomicRequired, a.calls])).toEqual(
      actions.map(() => ['sendTransaction', false, null]),
    );
  });

  it('previews every slice of the chain: source share, expected output, in quote-plan order', async () => {
    const [, ethereum, arbitrum] = await build();

    expect(ethereum.perLegPreview).toEqual([
      {
        legIndex: 0,
        provider: 'relay',
        outputSymbol: 'USDC',
        sourceTokens: [
          {
            chain: 'ethereum',
            amount: '600',
            symbol: 'USDC',
            address: usdc,
            rawAmount: '600000000',
            usdValue: '600',
          },
        ],
        sourceChainId: 1,
        outputTargetId: 't0',
        expectedOutputAmount: '599000000',
        expectedOutputFormatted: '599',
      },
      {
        legIndex: 1,
        provider: 'across',
        outputSymbol: 'ETH',
        sourceTokens: [
          {
            chain: 'ethereum',
            amount: '400',
            symbol: 'USDC',
            address: usdc,
            rawAmount: '400000000',
            usdValue: '400',
          },
        ],
        sourceChainId: 1,
        outputTargetId: 't1',
        expectedOutputAmount: '133000000000000000',
        expectedOutputFormatted: '0.133',
      },
      {
        legIndex: 1,
        provider: 'across',
        outputSymbol: 'ETH',
        sourceTokens: [
          {
            chain: 'ethereum',
            amount: '200',
            symbol: '',
            address: usdt,
            rawAmount: '200000000',
            usdValue: null,
          },
        ],
        sourceChainId: 1,
        outputTargetId: 't1',
        expectedOutputAmount: '66000000000000000',
        expectedOutputFormatted: '0.066',
      },
    ]);
    expect(arbitrum.perLegPreview).toEqual([
      {
        legIndex: 0,
        provider: 'direct',
        outputSymbol: 'USDC',
        sourceTokens: [
          {
            chain: 'arbitrum',
            amount: '500',
            symbol: 'USDC',
            address: usdc,
            rawAmount: '500000000',
            usdValue: '500',
          },
        ],
        sourceChainId: 42161,
        outputTargetId: 't0',
        expectedOutputAmount: '500000000',
        expectedOutputFormatted: '500',
      },
      {
        legIndex: 1,
        provider: 'direct',
        outputSymbol: 'ETH',
        sourceTokens: [
          {
            chain: 'arbitrum',
            amount: '2',
            symbol: 'ETH',
            address: zeroAddress,
            rawAmount: '2000000000000000000',
            usdValue: '6000',
          },
        ],
        sourceChainId: 42161,
        outputTargetId: 't1',
        expectedOutputAmount: '2000000000000000000',
        expectedOutputFormatted: '2',
      },
    ]);
  });

  describe('refuses stored data it must not build from', () => {
    const withEthereumCalls = (stored: ExecutionCall[]) => {
      const [first, second] = legs();
      return build({
        legs: [{ ...first, slices: [first.slices[0], { ...first.slices[1], calls: stored }] }, second],
      });
    };
    const c = () => calls();

    it.each([
      [
        'an approve call without approval details',
        () => [{ ...c().relayApprove, approval: null }, c().relayDeposit],
      ],
      [
        'approval details the calldata does not match',
        () => [
          { ...c().relayApprove, approval: { token: usdc, spender: SPOKE_POOL, amount: '600000000' } },
          c().relayDeposit,
        ],
      ],
      ['an approval sent to another token', () => [{ ...c().relayApprove, to: usdt }, c().relayDeposit]],
      [
        'a consistent approval of a token that is not the slice source',
        () => [approveCall(1, usdt, DEPOSITORY, 600_000000n), c().relayDeposit],
      ],
      [
        'approve calldata that is a transfer',
        () => [
          {
            ...c().relayApprove,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transfer',
              args: [DEPOSITORY, 600_000000n],
            }),
          },
          c().relayDeposit,
        ],
      ],
      ['a call on another chain', () => [c().relayApprove, { ...c().relayDeposit, chainId: 8453 }]],
      ['a slice of approvals only', () => [c().relayApprove]],
    ])('%s', async (_, stored) => {
      await expect(withEthereumCalls(stored())).rejects.toThrow(InvalidQuotedExecutionError);
    });

    it('a source index out of range, or a target list that does not match the legs', async () => {
      const [first, second] = legs();
      await expect(
        build({ legs: [{ ...first, slices: [{ ...first.slices[0], sourceIndex: 9 }] }, second] }),
      ).rejects.toThrow(InvalidQuotedExecutionError);
      await expect(build({ targets: targets().slice(0, 1) })).rejects.toThrow(InvalidQuotedExecutionError);
      await expect(build({ targets: targets().reverse() })).rejects.toThrow(InvalidQuotedExecutionError);
    });
  });
});

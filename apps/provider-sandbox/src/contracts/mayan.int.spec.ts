import {
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  maxUint256,
  pad,
  parseEther,
  parseUnits,
  zeroAddress,
  zeroHash,
  type AbiParameter,
  type Address,
  type Hex,
} from 'viem';
import { SANDBOX_ADDRESSES } from '../chains/sandbox-addresses';
import {
  MayanForwarderArtifact,
  MayanSwapRouterArtifact,
  MayanSwiftArtifact,
  MayanSwiftV2Artifact,
} from './artifacts';
import { startContractTestChain, type ContractTestFixture } from './contract-test-fixture';

const { mayanForwarder, mayanSwift, mayanSwiftV2, mayanSwapRouter, usdt, usdc, weth } = SANDBOX_ADDRESSES;
const noPermit = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };
const forwarderAndSwiftAbi = [...MayanForwarderArtifact.abi, ...MayanSwiftArtifact.abi];
const forwarderAndSwiftV2Abi = [...MayanForwarderArtifact.abi, ...MayanSwiftV2Artifact.abi];

const orderParamsType = MayanSwiftArtifact.abi.find(
  (item) => item.type === 'function' && item.name === 'createOrderWithEth',
)!.inputs[0] as AbiParameter;

// Left-padded bytes32, lowercase as the chain returns it.
const bytes32 = (address: Address) => pad(address.toLowerCase() as Hex);

interface OrderV1 {
  trader: Hex;
  tokenOut: Hex;
  minAmountOut: bigint;
  gasDrop: bigint;
  cancelFee: bigint;
  refundFee: bigint;
  deadline: bigint;
  destAddr: Hex;
  destChainId: number;
  referrerAddr: Hex;
  referrerBps: number;
  auctionMode: number;
  random: Hex;
}

function order(trader: Address, random: Hex): OrderV1 {
  return {
    trader: bytes32(trader),
    tokenOut: bytes32(usdc),
    minAmountOut: 99_000_000n, // 0.99 USDC at min(8, 6) = 6 decimals
    gasDrop: 0n,
    cancelFee: 0n,
    refundFee: 0n,
    deadline: 2_000_000_000n,
    destAddr: bytes32(trader),
    destChainId: 30, // Wormhole id of base
    referrerAddr: zeroHash,
    referrerBps: 0,
    auctionMode: 2,
    random,
  };
}

function orderKey(params: OrderV1, tokenIn: Address, amountIn: bigint, chainId: number) {
  return keccak256(
    encodeAbiParameters(
      [orderParamsType, { type: 'address' }, { type: 'uint256' }, { type: 'uint256' }],
      [params, tokenIn, amountIn, BigInt(chainId)],
    ),
  );
}

describe('MayanForwarder → MayanSwift', () => {
  let f: ContractTestFixture;
  beforeAll(async () => (f = await startContractTestChain(1)));
  afterAll(() => f?.anvil.stop());

  it('forwardEth creates an ETH order keyed by keccak256(abi.encode(params, tokenIn, amountIn, chainid))', async () => {
    const params = order(f.user.address, keccak256('0x01'));
    const protocolData = encodeFunctionData({
      abi: MayanSwiftArtifact.abi,
      functionName: 'createOrderWithEth',
      args: [params],
    });
    const receipt = await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: mayanForwarder,
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardEth',
        args: [mayanSwift, protocolData],
        value: parseEther('1'),
      }),
    );
    expect(f.events(forwarderAndSwiftAbi, receipt)).toMatchObject([
      {
        eventName: 'OrderCreated',
        args: {
          key: orderKey(params, zeroAddress, parseEther('1'), 1),
          tokenIn: zeroAddress,
          amountIn: parseEther('1'),
          trader: params.trader,
          tokenOut: params.tokenOut,
          minAmountOut: params.minAmountOut,
          destAddr: params.destAddr,
          destChainId: 30,
          deadline: params.deadline,
          random: params.random,
        },
      },
      { eventName: 'ForwardedEth', args: { protocol: mayanSwift, protocolData: protocolData.toLowerCase() } },
    ]);
    expect(await f.client.getBalance({ address: mayanSwift })).toBe(parseEther('1'));
  });

  it('forwardERC20 pulls USDT, approves Swift (USDT rules hold) and creates a token order', async () => {
    const amount = parseUnits('500', 6);
    const params = order(f.user.address, keccak256('0x02'));
    const protocolData = encodeFunctionData({
      abi: MayanSwiftArtifact.abi,
      functionName: 'createOrderWithToken',
      args: [usdt, amount, params],
    });
    await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: usdt,
        abi: erc20Abi,
        functionName: 'approve',
        args: [mayanForwarder, amount],
      }),
    );
    const receipt = await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: mayanForwarder,
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardERC20',
        args: [usdt, amount, noPermit, mayanSwift, protocolData],
      }),
    );
    const events = f.events(forwarderAndSwiftAbi, receipt);
    expect(events.map((e) => e.eventName)).toEqual(['OrderCreated', 'ForwardedERC20']);
    expect(events[0].args).toMatchObject({
      key: orderKey(params, usdt, amount, 1),
      tokenIn: usdt,
      amountIn: amount,
    });
    expect(events[1].args).toMatchObject({
      token: usdt,
      amount,
      protocol: mayanSwift,
      protocolData: protocolData.toLowerCase(),
    });
    const held = await f.client.readContract({
      address: usdt,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [mayanSwift],
    });
    expect(held).toBe(amount);
  });

  it('bubbles up Swift reverts (a duplicate order) through the forwarder', async () => {
    const params = order(f.user.address, keccak256('0x01'));
    const protocolData = encodeFunctionData({
      abi: MayanSwiftArtifact.abi,
      functionName: 'createOrderWithEth',
      args: [params],
    });
    await expect(
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: forwarderAndSwiftAbi,
        functionName: 'forwardEth',
        args: [mayanSwift, protocolData],
        value: parseEther('1'),
      }),
    ).rejects.toThrow(/DuplicateOrder/);
  });

  it('uses a permit only when its value is non-zero (the sandbox tokens have none, so that reverts)', async () => {
    await expect(
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardERC20',
        args: [usdc, 1n, { ...noPermit, value: 1n }, mayanSwift, '0x'],
      }),
    ).rejects.toThrow(/reverted/);
  });
});

function orderV2(trader: Address, random: Hex, overrides: Partial<OrderV1> = {}) {
  return { payloadType: 1, ...order(trader, random), ...overrides };
}

describe('MayanForwarder → MayanSwiftV2 (wrap-and-lock, swap-sdk v13.0.0+)', () => {
  let f: ContractTestFixture;
  beforeAll(async () => (f = await startContractTestChain(1)));
  afterAll(() => f?.anvil.stop());

  const v2Call = (tokenIn: Address, amountIn: bigint, params: ReturnType<typeof orderV2>) =>
    encodeFunctionData({
      abi: MayanSwiftV2Artifact.abi,
      functionName: 'createOrderWithToken',
      args: [tokenIn, amountIn, params, '0x'],
    });

  it('swapAndForwardEth wraps ETH through the router, writes the WETH it yielded into createOrderWithToken(0x0, …) and locks it as a native order', async () => {
    const amount = parseEther('0.5');
    const params = orderV2(f.user.address, keccak256('0x10'));
    // Built with a wrong amount on purpose: the forwarder replaces it with what the swap gave, as Mayan's does.
    const mayanData = v2Call(zeroAddress, 1n, params);
    const wrap = encodeFunctionData({ abi: MayanSwapRouterArtifact.abi, functionName: 'wrap', args: [weth] });
    const receipt = await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: mayanForwarder,
        abi: MayanForwarderArtifact.abi,
        functionName: 'swapAndForwardEth',
        args: [amount, mayanSwapRouter, wrap, weth, amount, mayanSwiftV2, mayanData],
        value: amount,
      }),
    );
    const events = f.events(forwarderAndSwiftV2Abi, receipt);
    expect(events.map((e) => e.eventName)).toEqual(['OrderCreated', 'SwapAndForwardedEth']);
    expect(events[0].args).toMatchObject({ tokenIn: zeroAddress, amountIn: amount, random: params.random });
    expect(events[1].args).toMatchObject({ amountIn: amount, middleToken: weth, middleAmount: amount });
    const locked = await f.client.readContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [mayanSwiftV2],
    });
    expect(locked).toBe(amount);
  });

  it('swapAndForwardEth refuses a swap that yields less than minMiddleAmount', async () => {
    const amount = parseEther('0.1');
    const wrap = encodeFunctionData({ abi: MayanSwapRouterArtifact.abi, functionName: 'wrap', args: [weth] });
    await expect(
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: forwarderAndSwiftV2Abi,
        functionName: 'swapAndForwardEth',
        args: [
          amount,
          mayanSwapRouter,
          wrap,
          weth,
          amount + 1n,
          mayanSwiftV2,
          v2Call(zeroAddress, amount, orderV2(f.user.address, keccak256('0x11'))),
        ],
        value: amount,
      }),
    ).rejects.toThrow(/InsufficientMiddleToken/);
  });

  it('refuses createOrderWithEth: "Swift V2 doesn\'t support createOrderWithEth" (swap-sdk evmSwift.ts)', async () => {
    const params = orderV2(f.user.address, keccak256('0x12'));
    const protocolData = encodeFunctionData({
      abi: MayanSwiftV2Artifact.abi,
      functionName: 'createOrderWithEth',
      args: [params, '0x'],
    });
    await expect(
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: forwarderAndSwiftV2Abi,
        functionName: 'forwardEth',
        args: [mayanSwiftV2, protocolData],
        value: parseEther('1'),
      }),
    ).rejects.toThrow(/CreateOrderWithEthUnsupported/);
  });

  describe("the real contracts' creation checks (swap-bridge MayanSwift.sol; swift-v2-forge SwiftSource.sol)", () => {
    const amount = parseUnits('100', 6);
    beforeAll(async () => {
      await f.mined(
        await f.client.writeContract({
          account: f.user,
          address: usdc,
          abi: erc20Abi,
          functionName: 'approve',
          args: [mayanForwarder, maxUint256],
        }),
      );
    });
    const forwardV1 = (params: OrderV1, amountIn = amount) =>
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: forwarderAndSwiftAbi,
        functionName: 'forwardERC20',
        args: [
          usdc,
          amountIn,
          noPermit,
          mayanSwift,
          encodeFunctionData({
            abi: MayanSwiftArtifact.abi,
            functionName: 'createOrderWithToken',
            args: [usdc, amountIn, params],
          }),
        ],
      });
    const forwardV2 = (params: ReturnType<typeof orderV2>) =>
      f.client.simulateContract({
        account: f.user,
        address: mayanForwarder,
        abi: forwarderAndSwiftV2Abi,
        functionName: 'forwardERC20',
        args: [usdc, amount, noPermit, mayanSwiftV2, v2Call(usdc, amount, params)],
      });
    const random = keccak256('0x20');

    it.each<[string, Partial<OrderV1>, RegExp]>([
      [
        'cancel + refund fees that reach the input',
        { cancelFee: 60_000_000n, refundFee: 40_000_000n },
        /FeesTooHigh/,
      ],
      ['a gas drop to native output', { tokenOut: zeroHash, gasDrop: 1n }, /InvalidGasDrop/],
      ['a destination that is this chain (Wormhole 2 = chain 1)', { destChainId: 2 }, /InvalidDestChain/],
      ['no destination', { destChainId: 0 }, /InvalidDestChain/],
    ])('V1 and V2 refuse %s', async (_label, overrides, error) => {
      await expect(forwardV1({ ...order(f.user.address, random), ...overrides })).rejects.toThrow(error);
      await expect(forwardV2(orderV2(f.user.address, random, overrides))).rejects.toThrow(error);
    });

    it('V1 takes a referrer fee up to 50 bps, V2 up to 200 bps (BPS_FEE_LIMIT)', async () => {
      await expect(forwardV1({ ...order(f.user.address, random), referrerBps: 50 })).resolves.toBeDefined();
      await expect(forwardV1({ ...order(f.user.address, random), referrerBps: 51 })).rejects.toThrow(
        /InvalidBpsFee/,
      );
      await expect(forwardV2(orderV2(f.user.address, random, { referrerBps: 200 }))).resolves.toBeDefined();
      await expect(forwardV2(orderV2(f.user.address, random, { referrerBps: 201 }))).rejects.toThrow(
        /InvalidBpsFee/,
      );
    });

    it('V2 serves only chains with an emitter: the sandbox chains', async () => {
      await expect(forwardV1({ ...order(f.user.address, random), destChainId: 24 })).resolves.toBeDefined();
      await expect(forwardV2(orderV2(f.user.address, random, { destChainId: 24 }))).rejects.toThrow(
        /InvalidDestChain/,
      );
    });

    it('an amount that normalises to 0 at 8 decimals is SmallAmountIn', async () => {
      const params = order(f.user.address, random);
      const protocolData = encodeFunctionData({
        abi: MayanSwiftArtifact.abi,
        functionName: 'createOrderWithEth',
        args: [params],
      });
      await expect(
        f.client.simulateContract({
          account: f.user,
          address: mayanForwarder,
          abi: forwarderAndSwiftAbi,
          functionName: 'forwardEth',
          args: [mayanSwift, protocolData],
          value: 10n ** 10n - 1n,
        }),
      ).rejects.toThrow(/SmallAmountIn/);
    });
  });
});

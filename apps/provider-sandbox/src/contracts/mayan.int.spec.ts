import {
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
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
import { MayanForwarderArtifact, MayanSwiftArtifact } from './artifacts';
import { startContractTestChain, type ContractTestFixture } from './contract-test-fixture';

const { mayanForwarder, mayanSwift, usdt, usdc } = SANDBOX_ADDRESSES;
const noPermit = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };
const forwarderAndSwiftAbi = [...MayanForwarderArtifact.abi, ...MayanSwiftArtifact.abi];

const orderParamsType = MayanSwiftArtifact.abi.find(
  (item) => item.type === 'function' && item.name === 'createOrderWithEth',
)!.inputs[0] as AbiParameter;

// Left-padded bytes32, lowercase as the chain returns it.
const bytes32 = (address: Address) => pad(address.toLowerCase() as Hex);

function order(trader: Address, random: `0x${string}`) {
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
  } as const;
}

function orderKey(params: ReturnType<typeof order>, tokenIn: Address, amountIn: bigint, chainId: number) {
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

import { encodeFunctionData, erc20Abi, pad, type Address, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { MayanForwarderArtifact, MayanSwiftArtifact } from '../contracts/artifacts';

const ZERO32 = pad('0x', { size: 32 });

/**
 * What a Mayan client builds from a Swift quote (the API returns no transaction): approve the forwarder,
 * then `forwardERC20(token, amount, no permit, swift, createOrderWithToken(...))`. Test-only.
 */
export function swiftOrderCalls(params: {
  forwarder: Address;
  swift: Address;
  tokenIn: Address;
  amountIn: bigint;
  trader: Address;
  tokenOut: Address;
  recipient: Address;
  destWormholeChainId: number;
  /** Already in Swift's min(8, decimals) decimals. */
  minAmountOut: bigint;
  deadline: bigint;
  auctionMode: number;
}): { to: Address; data: Hex }[] {
  const order = {
    trader: pad(params.trader),
    tokenOut: pad(params.tokenOut),
    minAmountOut: params.minAmountOut,
    gasDrop: 0n,
    cancelFee: 0n,
    refundFee: 0n,
    deadline: params.deadline,
    destAddr: pad(params.recipient),
    destChainId: params.destWormholeChainId,
    referrerAddr: ZERO32,
    referrerBps: 0,
    auctionMode: params.auctionMode,
    random: generatePrivateKey(),
  };
  const protocolData = encodeFunctionData({
    abi: MayanSwiftArtifact.abi,
    functionName: 'createOrderWithToken',
    args: [params.tokenIn, params.amountIn, order],
  });
  const permit = { value: 0n, deadline: 0n, v: 0, r: ZERO32, s: ZERO32 };
  return [
    {
      to: params.tokenIn,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [params.forwarder, params.amountIn],
      }),
    },
    {
      to: params.forwarder,
      data: encodeFunctionData({
        abi: MayanForwarderArtifact.abi,
        functionName: 'forwardERC20',
        args: [params.tokenIn, params.amountIn, permit, params.swift, protocolData],
      }),
    },
  ];
}

import { encodeFunctionData, erc20Abi, type Hex, pad, type Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { MayanForwarderArtifact, MayanSwiftArtifact, MayanSwiftV2Artifact } from '../contracts/artifacts';

const ZERO32 = pad('0x', { size: 32 });

/**
 * What a Mayan client builds from a Swift quote for a token input (the API returns no transaction): approve the
 * forwarder, then `forwardERC20(token, amount, no permit, swift, createOrderWithToken(...))` in the quote's Swift
 * layout (V2 adds a payload type and a custom payload). `random` defaults to 32 random bytes; a client following
 * swap-sdk `createSwiftRandomKey` starts it with the quoteId. Test-only.
 */
export function swiftOrderCalls(params: {
  forwarder: Address;
  swift: Address;
  version?: 'V1' | 'V2';
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
  cancelFee?: bigint;
  refundFee?: bigint;
  random?: Hex;
}): { to: Address; data: Hex }[] {
  const order = {
    trader: pad(params.trader),
    tokenOut: pad(params.tokenOut),
    minAmountOut: params.minAmountOut,
    gasDrop: 0n,
    cancelFee: params.cancelFee ?? 0n,
    refundFee: params.refundFee ?? 0n,
    deadline: params.deadline,
    destAddr: pad(params.recipient),
    destChainId: params.destWormholeChainId,
    referrerAddr: ZERO32,
    referrerBps: 0,
    auctionMode: params.auctionMode,
    random: params.random ?? generatePrivateKey(),
  };
  const protocolData =
    params.version === 'V2'
      ? encodeFunctionData({
          abi: MayanSwiftV2Artifact.abi,
          functionName: 'createOrderWithToken',
          args: [params.tokenIn, params.amountIn, { payloadType: 1, ...order }, '0x'],
        })
      : encodeFunctionData({
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

/** swap-sdk `createSwiftRandomKey` for a 16-byte quoteId: the id, then 16 random bytes. */
export function swiftRandomFor(quoteId: string): Hex {
  return `0x${quoteId.replace(/^0x/, '').padStart(32, '0')}${generatePrivateKey().slice(2, 34)}`;
}

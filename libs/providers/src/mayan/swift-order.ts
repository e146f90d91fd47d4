import {
  type Address,
  encodeFunctionData,
  type Hex,
  prepareEncodeFunctionData,
  zeroAddress,
  zeroHash,
} from 'viem';
import { addressToBytes32 } from '../evm/address-to-bytes32';
import { MalformedResponseError } from '../response/malformed-response.error';
import { mayanSwiftV1Abi, mayanSwiftV2Abi } from './mayan-abi';
import { type SwiftQuote } from './swift-quote';
import { cappedReferrerBps } from './swift-referrer-bps';

/** swap-sdk src/utils.ts `SWIFT_PAYLOAD_TYPE_DEFAULT`: no custom payload. */
const PAYLOAD_TYPE_DEFAULT = 1;

/** Each function's selector hashed once here, not on every encode (viem skips the lookup for a prepared one). */
const V2_WITH_TOKEN = prepareEncodeFunctionData({
  abi: mayanSwiftV2Abi,
  functionName: 'createOrderWithToken',
});
const V1_WITH_ETH = prepareEncodeFunctionData({ abi: mayanSwiftV1Abi, functionName: 'createOrderWithEth' });
const V1_WITH_TOKEN = prepareEncodeFunctionData({
  abi: mayanSwiftV1Abi,
  functionName: 'createOrderWithToken',
});

/** What the order needs beyond the quote. */
export interface SwiftOrderInputs {
  /** Receives the output on the destination chain. */
  recipient: Address;
  /**
   * The order's `trader`, who gets a refund: swap-sdk v15.2.0 evmSwift.ts writes `swiftRefundAddress` there when
   * one is given, else the swapper (commit 1241894, "Add option for custom refund address for swift orders").
   */
  refundTo: Address;
  /** The referrer we sent with the quote, or null. */
  referrer: Address | null;
  /** swift-random-key.ts. */
  random: Hex;
}

/** The V1 order fields; V2 adds `payloadType` and orders them differently (mayan-abi.ts). */
export interface SwiftOrderFields {
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

/** swap-sdk src/evm/evmSwift.ts `getEvmSwiftParams`, for an EVM source and destination. */
export function swiftOrderFields(quote: SwiftQuote, inputs: SwiftOrderInputs): SwiftOrderFields {
  return {
    trader: addressToBytes32(inputs.refundTo),
    // `getSwiftToTokenHexString`: native out is Solana's system program id, i.e. 32 zero bytes.
    tokenOut: addressToBytes32(quote.toToken),
    minAmountOut: quote.orderMinAmountOut,
    gasDrop: quote.gasDrop,
    cancelFee: quote.cancelFee,
    refundFee: quote.refundFee,
    deadline: quote.deadline,
    destAddr: addressToBytes32(inputs.recipient),
    destChainId: quote.toChain.wormholeId,
    // No referrer: the SDK sends Solana's system program id, which is 32 zero bytes.
    referrerAddr: inputs.referrer === null ? zeroHash : addressToBytes32(inputs.referrer),
    referrerBps: cappedReferrerBps(quote.referrerBps, quote.swiftVersion),
    auctionMode: quote.auctionMode,
    random: inputs.random,
  };
}

/**
 * The Swift contract's calldata, as `getSwiftFromEvmTxPayload` encodes it: `createOrderWithEth` only for a V1
 * quote whose input contract is native ("Swift V2 doesn't support createOrderWithEth"), else
 * `createOrderWithToken(tokenIn, amountIn, order[, customPayload])` where a wrap-and-lock order names tokenIn 0x0.
 */
export function swiftProtocolData(quote: SwiftQuote, order: SwiftOrderFields): Hex {
  const nativeInput = quote.swiftInputContract.toLowerCase() === zeroAddress;
  const tokenIn = quote.wrapAndLock ? zeroAddress : quote.swiftInputContract;
  if (quote.swiftVersion === 'V2') {
    if (nativeInput) throw new MalformedResponseError("Swift V2 doesn't support createOrderWithEth");
    const params = { payloadType: PAYLOAD_TYPE_DEFAULT, ...order };
    return encodeFunctionData({
      ...V2_WITH_TOKEN,
      args: [tokenIn, quote.effectiveAmountIn, params, '0x'],
    });
  }
  return nativeInput
    ? encodeFunctionData({ ...V1_WITH_ETH, args: [order] })
    : encodeFunctionData({
        ...V1_WITH_TOKEN,
        args: [tokenIn, quote.effectiveAmountIn, order],
      });
}

import { type Address, encodeFunctionData, type Hex, zeroAddress, zeroHash } from 'viem';
import { addressToBytes32 } from '../evm/address-to-bytes32';
import { type QuoteSlice } from '../provider-adapter.port';
import { MalformedResponseError } from '../response/malformed-response.error';
import { mayanSwiftV1Abi, mayanSwiftV2Abi } from './mayan-abi';
import { type SwiftQuote } from './swift-quote';

/** Swift carries amounts with at most 8 decimals (Wormhole normalisation). */
const SWIFT_MAX_DECIMALS = 8;
const PAYLOAD_TYPE_DEFAULT = 1;

/** What the order needs beyond the quote. */
export interface SwiftOrderInputs {
  destWormholeChainId: number;
  /** The referrer we sent with the quote, or null. */
  referrer: Address | null;
  /** The referrer bps we asked for, used when the quote does not echo its own. */
  requestedReferrerBps: number;
  random: Hex;
}

/** `createOrderWithToken` / `createOrderWithEth` calldata for the Swift contract, as the SDK builds it. */
export function swiftProtocolData(slice: QuoteSlice, quote: SwiftQuote, inputs: SwiftOrderInputs): Hex {
  const fields = {
    trader: addressToBytes32(slice.wallet),
    tokenOut: addressToBytes32(slice.target.token),
    minAmountOut: toSwiftDecimals(quote.minReceivedRaw, slice.target.decimals),
    gasDrop: 0n,
    cancelFee: quote.cancelFee,
    refundFee: quote.refundFee,
    deadline: quote.deadline,
    destAddr: addressToBytes32(slice.recipient),
    destChainId: inputs.destWormholeChainId,
    // No referrer: the SDK sends Solana's system program id, which is 32 zero bytes.
    referrerAddr: inputs.referrer === null ? zeroHash : addressToBytes32(inputs.referrer),
    referrerBps: inputs.referrer === null ? 0 : (quote.referrerBps ?? inputs.requestedReferrerBps),
    auctionMode: quote.auctionMode,
    random: inputs.random,
  };
  const native = slice.source.token.toLowerCase() === zeroAddress;
  if (quote.swiftVersion === 'V2') {
    const params = { payloadType: PAYLOAD_TYPE_DEFAULT, ...fields };
    return native
      ? encodeFunctionData({ abi: mayanSwiftV2Abi, functionName: 'createOrderWithEth', args: [params, '0x'] })
      : encodeFunctionData({
          abi: mayanSwiftV2Abi,
          functionName: 'createOrderWithToken',
          args: [slice.source.token, quote.effectiveAmountIn, params, '0x'],
        });
  }
  return native
    ? encodeFunctionData({ abi: mayanSwiftV1Abi, functionName: 'createOrderWithEth', args: [fields] })
    : encodeFunctionData({
        abi: mayanSwiftV1Abi,
        functionName: 'createOrderWithToken',
        args: [slice.source.token, quote.effectiveAmountIn, fields],
      });
}

/** Floor to min(8, decimals) decimals: the order's minimum is never above what the quote promised. */
export function toSwiftDecimals(raw: bigint, decimals: number): bigint {
  const scaled = decimals > SWIFT_MAX_DECIMALS ? raw / 10n ** BigInt(decimals - SWIFT_MAX_DECIMALS) : raw;
  if (scaled >= 2n ** 64n) throw new MalformedResponseError('minReceivedBaseUnits does not fit in uint64');
  return scaled;
}

import { type Address, encodeFunctionData, erc20Abi, type Hex, zeroAddress, zeroHash } from 'viem';
import { sameAddress } from '../evm/same-address';
import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderCall } from '../provider-quote';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { mayanForwarderAbi } from './mayan-abi';
import { type SwiftOrderInputs, swiftProtocolData } from './swift-order';
import { type SwiftQuote } from './swift-quote';

/** An all-zero permit: the forwarder then pulls the tokens with the allowance from the approve call. */
const NO_PERMIT = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };

/**
 * The wallet's transactions for a Swift quote, which returns none (SDK `getSwapFromEvmTxPayload`): native input
 * is `forwardEth` with the amount as value; a token is approved to the forwarder, then `forwardERC20`.
 */
export function swiftCalls(
  slice: QuoteSlice,
  quote: SwiftQuote,
  forwarder: Address,
  order: SwiftOrderInputs,
): ProviderCall[] {
  // A different Swift input token means a swap on the source chain first, through a router we do not build.
  if (quote.swiftInputContract !== null && !sameAddress(quote.swiftInputContract, slice.source.token))
    throw new UnusableRouteError(
      'the route swaps on the source chain first, which this service does not build',
    );
  if (quote.effectiveAmountIn > slice.source.amount)
    throw new MalformedResponseError('effectiveAmountIn64 exceeds the amount asked for');
  const protocolData = swiftProtocolData(slice, quote, order);
  const chainId = slice.source.chainId;
  if (sameAddress(slice.source.token, zeroAddress)) {
    const data = encodeFunctionData({
      abi: mayanForwarderAbi,
      functionName: 'forwardEth',
      args: [quote.swiftContract, protocolData],
    });
    return [{ chainId, to: forwarder, data, value: quote.effectiveAmountIn, gas: null, kind: 'deposit' }];
  }
  const approve: ProviderCall = {
    chainId,
    to: slice.source.token,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [forwarder, quote.effectiveAmountIn],
    }),
    value: 0n,
    gas: null,
    kind: 'approve',
    approval: { token: slice.source.token, spender: forwarder, amount: quote.effectiveAmountIn },
  };
  const forward: Hex = encodeFunctionData({
    abi: mayanForwarderAbi,
    functionName: 'forwardERC20',
    args: [slice.source.token, quote.effectiveAmountIn, NO_PERMIT, quote.swiftContract, protocolData],
  });
  return [
    approve,
    { chainId, to: forwarder, data: forward, value: quote.bridgeFee, gas: null, kind: 'deposit' },
  ];
}

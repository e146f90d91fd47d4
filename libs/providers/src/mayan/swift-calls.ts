import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  prepareEncodeFunctionData,
  zeroAddress,
  zeroHash,
} from 'viem';
import { sameAddress } from '../evm/same-address';
import { type QuoteSlice } from '../provider-adapter.port';
import { type ProviderCall } from '../provider-quote';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { mayanForwarderAbi } from './mayan-abi';
import { type SwiftSwapRoute } from './mayan-swap-route';
import { swiftFractionalAmount } from './swift-fractional-amount';
import { type SwiftOrderFields, swiftProtocolData } from './swift-order';
import { type SwiftQuote } from './swift-quote';

/** An all-zero permit (swap-sdk src/utils.ts `ZeroPermit`): the forwarder then uses the approve call's allowance. */
const NO_PERMIT = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };

/** Each function's selector hashed once here, not on every encode (viem skips the lookup for a prepared one). */
const FORWARD_ETH = prepareEncodeFunctionData({ abi: mayanForwarderAbi, functionName: 'forwardEth' });
const SWAP_AND_FORWARD_ETH = prepareEncodeFunctionData({
  abi: mayanForwarderAbi,
  functionName: 'swapAndForwardEth',
});
const FORWARD_ERC20 = prepareEncodeFunctionData({ abi: mayanForwarderAbi, functionName: 'forwardERC20' });
const APPROVE = prepareEncodeFunctionData({ abi: erc20Abi, functionName: 'approve' });

/** The forwarder method swap-sdk v15.2.0 src/evm/evmSwift.ts `getSwiftFromEvmTxPayload` picks for a quote. */
export type SwiftForwarderMethod = 'forwardERC20' | 'forwardEth' | 'swapAndForwardEth';

/**
 * The SDK's choice, with its refusals as MalformedResponseError. The source token equal to the Swift input:
 * `forwardERC20`, or `forwardEth` for native input on V1 only ("Swift V2 doesn't support createOrderWithEth").
 * Otherwise the SDK swaps first; of those routes this service builds only V2 wrap-and-lock (native in, WETH locked,
 * since v13.0.0), which is `swapAndForwardEth`. Any other source swap is a route we do not build.
 */
export function swiftForwarderMethod(slice: QuoteSlice, quote: SwiftQuote): SwiftForwarderMethod {
  if (!sameAddress(quote.fromToken, slice.source.token))
    throw new MalformedResponseError(`fromToken.contract is not ${slice.source.token}`);
  if (quote.effectiveAmountIn > slice.source.amount)
    throw new MalformedResponseError('effectiveAmountIn64 exceeds the amount asked for');
  const native = sameAddress(slice.source.token, zeroAddress);
  if (sameAddress(quote.fromToken, quote.swiftInputContract)) {
    if (quote.wrapAndLock) throw new MalformedResponseError('Invalid wrap & lock (nothing to wrap)');
    if (!native) return 'forwardERC20';
    if (quote.swiftVersion === 'V2')
      throw new MalformedResponseError("Swift V2 doesn't support createOrderWithEth");
    return 'forwardEth';
  }
  if (quote.wrapAndLock && native) return 'swapAndForwardEth';
  throw new UnusableRouteError(
    'the route swaps on the source chain first, which this service does not build',
  );
}

/**
 * The wallet's transactions for a Swift quote, which returns none: an approval of the forwarder for a token, then
 * the forwarder call carrying the Swift calldata. Swift sends value 0 with `forwardERC20` (the SDK's `bridgeFee`
 * is a WH-route value, never a Swift one) and the input amount with the native methods.
 */
export function swiftCalls(
  slice: QuoteSlice,
  quote: SwiftQuote,
  forwarder: Address,
  order: SwiftOrderFields,
  swapRoute: SwiftSwapRoute | null,
): ProviderCall[] {
  const method = swiftForwarderMethod(slice, quote);
  const protocolData = swiftProtocolData(quote, order);
  const chainId = slice.source.chainId;
  const amountIn = quote.effectiveAmountIn;
  const deposit = (data: Hex, value: bigint): ProviderCall => ({
    chainId,
    to: forwarder,
    data,
    value,
    gas: null,
    kind: 'deposit',
  });
  switch (method) {
    case 'forwardEth':
      return [
        deposit(
          encodeFunctionData({
            ...FORWARD_ETH,
            args: [quote.swiftContract, protocolData],
          }),
          amountIn,
        ),
      ];
    case 'swapAndForwardEth': {
      if (swapRoute === null) throw new MalformedResponseError('a wrap-and-lock order needs its swap route');
      return [
        deposit(
          encodeFunctionData({
            ...SWAP_AND_FORWARD_ETH,
            args: [
              amountIn,
              swapRoute.swapRouterAddress,
              swapRoute.swapRouterCalldata,
              quote.swiftInputContract,
              minMiddleAmount(quote),
              quote.swiftContract,
              protocolData,
            ],
          }),
          amountIn,
        ),
      ];
    }
    case 'forwardERC20': {
      const token = slice.source.token;
      const approve: ProviderCall = {
        chainId,
        to: token,
        data: encodeFunctionData({ ...APPROVE, args: [forwarder, amountIn] }),
        value: 0n,
        gas: null,
        kind: 'approve',
        approval: { token, spender: forwarder, amount: amountIn },
      };
      const forward = encodeFunctionData({
        ...FORWARD_ERC20,
        args: [quote.swiftInputContract, amountIn, NO_PERMIT, quote.swiftContract, protocolData],
      });
      return [approve, deposit(forward, 0n)];
    }
  }
}

/** evmSwift.ts: "Swift swap requires middle amount, router address and calldata" (`!quote.minMiddleAmount`). */
function minMiddleAmount(quote: SwiftQuote): bigint {
  if (!quote.minMiddleAmount) throw new MalformedResponseError('Swift swap requires middle amount');
  if (quote.swiftInputDecimals === null) throw new MalformedResponseError('swiftInputDecimals is missing');
  return swiftFractionalAmount(quote.minMiddleAmount, quote.swiftInputDecimals, 'minMiddleAmount');
}

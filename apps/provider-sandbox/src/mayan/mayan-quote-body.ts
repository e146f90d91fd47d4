import { formatUnits, getAddress, type Address } from 'viem';
import { type ComputedQuote } from '../pricing/compute-quote';
import { microUsdToNumber } from '../pricing/format-usd';
import { mayanToken } from './mayan-token';
import { type SwiftRelayerFees } from './swift-relayer-fees';

const AUCTION_MODE = 2;

/**
 * One `SWIFT` quote of the `POST /quote` answer, with the fields swap-sdk v15.2.0 src/types.ts `Quote` names and
 * src/evm/evmSwift.ts reads. Human amounts are JSON numbers as Mayan sends them; the `*BaseUnits` / `*64` strings are
 * the ones to compute with. Always Swift V2 (V1 "will be deprecated in favour of V2", docs.mayan.finance
 * /integration/referral). Native input is wrap-and-lock (swap-sdk v13.0.0+): `swiftWrapAndLock`, the chain's WETH
 * as `swiftInputContract`, and `minMiddleAmount`, the WETH the wrap must yield (all of it). There is no `bridgeFee64`:
 * the real Quote type has none, and Swift sends no value with `forwardERC20`.
 */
export function mayanQuoteBody(params: {
  quoteId: string;
  quote: ComputedQuote;
  from: { name: string; wormholeId: number };
  to: { name: string; wormholeId: number };
  swiftContract: Address;
  deadline: bigint;
  referrerBps: number;
  fees: SwiftRelayerFees;
  /** The source chain's WETH when the input is native. */
  wrapAndLock: Address | null;
}) {
  const { quote, from, to, fees } = params;
  const { tokenIn, tokenOut } = quote;
  const human = (amount: bigint, decimals: number) => Number(formatUnits(amount, decimals));
  const sameAsset = (s: string) => (s === 'ETH' ? 'WETH' : s);
  const amountIn = human(quote.amountIn, tokenIn.decimals);
  return {
    type: 'SWIFT',
    swiftVersion: 'V2',
    swiftAuctionMode: AUCTION_MODE,
    quoteId: params.quoteId,
    gasless: false,
    onlyBridging: sameAsset(tokenIn.symbol) === sameAsset(tokenOut.symbol),
    hasAuction: true,
    cheaperChain: from.name,
    effectiveAmountIn: amountIn,
    effectiveAmountIn64: quote.amountIn.toString(),
    expectedAmountOut: human(quote.expectedOut, tokenOut.decimals),
    expectedAmountOutBaseUnits: quote.expectedOut.toString(),
    // The auction's floor and what the user receives at least: one figure here (no relayer fee on success).
    minAmountOut: human(quote.minOut, tokenOut.decimals),
    minReceived: human(quote.minOut, tokenOut.decimals),
    minReceivedBaseUnits: quote.minOut.toString(),
    price: human(quote.grossOut, tokenOut.decimals) / amountIn,
    priceImpact: null,
    priceStat: { ratio: 1, status: 'GOOD' },
    slippageBps: quote.slippageBps,
    gasDrop: 0,
    deadline64: params.deadline.toString(),
    swapRelayerFee: null,
    redeemRelayerFee: null,
    refundRelayerFee: human(fees.refundIn, tokenIn.decimals),
    solanaRelayerFee: null,
    refundRelayerFee64: fees.refund64.toString(),
    cancelRelayerFee64: fees.cancel64.toString(),
    submitRelayerFee64: null,
    clientRelayerFeeSuccess: microUsdToNumber(quote.providerFeeUsd),
    clientRelayerFeeRefund: microUsdToNumber(fees.refundUsd),
    bridgeFee: 0,
    protocolBps: 0,
    referrerBps: params.referrerBps,
    sendTransactionCost: 0,
    maxUserGasDrop: 0,
    etaSeconds: quote.etaSeconds,
    eta: Math.max(1, Math.ceil(quote.etaSeconds / 60)),
    clientEta: `${quote.etaSeconds}s`,
    fromToken: mayanToken(tokenIn, from.wormholeId),
    toToken: mayanToken(tokenOut, to.wormholeId),
    fromChain: from.name,
    toChain: to.name,
    swiftMayanContract: params.swiftContract,
    swiftInputContract: params.wrapAndLock ?? getAddress(tokenIn.address),
    swiftInputDecimals: tokenIn.decimals,
    swiftWrapAndLock: params.wrapAndLock !== null,
    ...(params.wrapAndLock === null ? {} : { minMiddleAmount: amountIn }),
  };
}

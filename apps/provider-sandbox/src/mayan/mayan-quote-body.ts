import { formatUnits, getAddress, type Address } from 'viem';
import { type ComputedQuote } from '../pricing/compute-quote';
import { microUsdToNumber } from '../pricing/format-usd';
import { mayanToken } from './mayan-token';

const AUCTION_MODE = 2;

/**
 * One `SWIFT` quote of the `POST /quote` answer (reference §3.2). Human amounts are JSON numbers as Mayan
 * sends them; the `*BaseUnits` / `*64` strings are the ones to compute with. `swiftVersion` is V1 because
 * the sandbox Swift contract has the V1 order layout.
 */
export function mayanQuoteBody(params: {
  quoteId: string;
  quote: ComputedQuote;
  from: { name: string; wormholeId: number };
  to: { name: string; wormholeId: number };
  swiftContract: Address;
  deadline: bigint;
  referrerBps: number;
}) {
  const { quote, from, to } = params;
  const { tokenIn, tokenOut } = quote;
  const human = (amount: bigint, decimals: number) => Number(formatUnits(amount, decimals));
  const sameAsset = (s: string) => (s === 'ETH' ? 'WETH' : s);
  return {
    type: 'SWIFT',
    swiftVersion: 'V1',
    swiftAuctionMode: AUCTION_MODE,
    quoteId: params.quoteId,
    gasless: false,
    onlyBridging: sameAsset(tokenIn.symbol) === sameAsset(tokenOut.symbol),
    hasAuction: true,
    cheaperChain: from.name,
    effectiveAmountIn: human(quote.amountIn, tokenIn.decimals),
    effectiveAmountIn64: quote.amountIn.toString(),
    expectedAmountOut: human(quote.expectedOut, tokenOut.decimals),
    expectedAmountOutBaseUnits: quote.expectedOut.toString(),
    minAmountOut: human(quote.minOut, tokenOut.decimals),
    minReceived: human(quote.minOut, tokenOut.decimals),
    minReceivedBaseUnits: quote.minOut.toString(),
    price: human(quote.grossOut, tokenOut.decimals) / human(quote.amountIn, tokenIn.decimals),
    priceImpact: null,
    priceStat: { ratio: 1, status: 'GOOD' },
    slippageBps: quote.slippageBps,
    gasDrop: 0,
    deadline64: params.deadline.toString(),
    swapRelayerFee: null,
    redeemRelayerFee: null,
    refundRelayerFee: 0,
    solanaRelayerFee: null,
    refundRelayerFee64: '0',
    cancelRelayerFee64: '0',
    submitRelayerFee64: '0',
    clientRelayerFeeSuccess: microUsdToNumber(quote.providerFeeUsd),
    clientRelayerFeeRefund: 0,
    bridgeFee: 0,
    bridgeFee64: '0',
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
    swiftInputContract: getAddress(tokenIn.address),
    swiftInputDecimals: tokenIn.decimals,
  };
}

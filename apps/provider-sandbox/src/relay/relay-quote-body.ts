import { type Address } from 'viem';
import { usdValue, type ComputedQuote, type QuoteToken } from '../pricing/compute-quote';
import { formatMicroUsd, formatPercent } from '../pricing/format-usd';
import { formatRate } from '../pricing/format-rate';
import { type PriceTable } from '../pricing/price-table';
import { relayAmount } from './relay-amount';
import { type RelayStep } from './relay-steps';

/** The `POST /quote/v2` 200 body (reference §1.2): steps, the deprecated-but-returned `fees`, and `details`. */
export function relayQuoteBody(params: {
  quote: ComputedQuote;
  steps: RelayStep[];
  user: Address;
  recipient: Address;
  prices: PriceTable;
  originGas: { token: QuoteToken; amount: bigint };
}) {
  const { quote, prices, steps } = params;
  const { tokenIn, tokenOut } = quote;
  const currencyIn = relayAmount(tokenIn, quote.amountIn, prices);
  const currencyOut = relayAmount(tokenOut, quote.expectedOut, prices, quote.minOut);
  const inFee = (amount: bigint) => relayAmount(tokenIn, amount, prices);
  const impactUsd = quote.expectedOutUsd - quote.amountInUsd;
  const negativeUsd = (amount: bigint) => ({
    usd: formatMicroUsd(-usdValue(amount, tokenIn.decimals, prices[tokenIn.symbol] ?? 0n)),
  });
  const serviceFeeIn = quote.providerFeeIn - quote.providerFlatFeeIn;
  const sameAsset = assetOf(tokenIn.symbol) === assetOf(tokenOut.symbol);
  return {
    steps,
    fees: {
      gas: relayAmount(params.originGas.token, params.originGas.amount, prices),
      relayer: inFee(quote.providerFeeIn),
      relayerGas: inFee(quote.providerFlatFeeIn),
      relayerService: inFee(serviceFeeIn),
      app: inFee(quote.appFeeIn),
    },
    details: {
      operation: sameAsset ? 'bridge' : 'swap',
      sender: params.user,
      recipient: params.recipient,
      currencyIn,
      currencyOut,
      refundCurrency: currencyIn,
      totalImpact: { usd: formatMicroUsd(impactUsd), percent: formatPercent(impactUsd, quote.amountInUsd) },
      // Sandbox prices are fixed, so the only loss is fees: swap impact (which excludes fees) is zero.
      swapImpact: { usd: '0', percent: '0' },
      expandedPriceImpact: {
        swap: { usd: '0' },
        execution: negativeUsd(quote.providerFlatFeeIn),
        relay: negativeUsd(serviceFeeIn),
        app: negativeUsd(quote.appFeeIn),
        sponsored: { usd: '0' },
      },
      rate: formatRate(quote.amountIn, tokenIn.decimals, quote.expectedOut, tokenOut.decimals),
      slippageTolerance: {
        origin: { usd: '0', value: '0', percent: '0' },
        destination: {
          usd: formatMicroUsd(quote.expectedOutUsd - quote.minOutUsd),
          value: (quote.expectedOut - quote.minOut).toString(),
          percent: formatPercent(BigInt(quote.slippageBps), 10_000n),
        },
      },
      timeEstimate: quote.etaSeconds,
      isFixedRate: false,
      route: {
        origin: { inputCurrency: currencyIn, outputCurrency: currencyIn, router: 'relay' },
        destination: { inputCurrency: currencyOut, outputCurrency: currencyOut, router: 'relay' },
      },
    },
  };
}

/** ETH and WETH are one asset for "bridge vs swap". */
function assetOf(symbol: string): string {
  return symbol === 'WETH' ? 'ETH' : symbol;
}

import { type Address, type Hex } from 'viem';
import { usdValue, type ComputedQuote, type QuoteToken } from '../pricing/compute-quote';
import { formatMicroUsd } from '../pricing/format-usd';
import { type PriceTable } from '../pricing/price-table';
import { acrossToken } from './across-token';

export interface AcrossSwapTx {
  simulationSuccess: boolean;
  chainId: number;
  to: Address;
  data: Hex;
  value: string;
  gas?: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}

/**
 * The `GET /swap/approval` 200 body (reference §2.2). Fees are in input-token units; `pct` is the fee over
 * the input, scaled by 1e18 as Across does.
 */
export function acrossQuoteBody(params: {
  id: string;
  quote: ComputedQuote;
  prices: PriceTable;
  spender: Address;
  allowance: bigint;
  balance: bigint;
  approvalTxns: { chainId: number; to: Address; data: Hex }[];
  swapTx: AcrossSwapTx;
  originGas: { token: QuoteToken; amount: bigint };
  quoteExpiryTimestamp: number;
  refundOnOrigin: boolean;
}) {
  const { quote, prices } = params;
  const { tokenIn, tokenOut, amountIn } = quote;
  const inToken = acrossToken(tokenIn);
  const fee = (amount: bigint) => ({
    amount: amount.toString(),
    amountUsd: formatMicroUsd(usdValue(amount, tokenIn.decimals, prices[tokenIn.symbol] ?? 0n)),
    pct: ((amount * 10n ** 18n) / amountIn).toString(),
    token: inToken,
  });
  const zero = { amount: '0', pct: '0' };
  const bridgeDetails = {
    type: 'across',
    lp: zero,
    relayerCapital: { amount: quote.providerFeeIn.toString(), pct: fee(quote.providerFeeIn).pct },
    destinationGas: zero,
  };
  const sameAsset = acrossSameAsset(quote);
  return {
    crossSwapType: sameAsset ? 'bridgeableToBridgeable' : 'bridgeableToAny',
    amountType: 'exactInput',
    checks: {
      allowance: {
        token: inToken.address,
        spender: params.spender,
        actual: params.allowance.toString(),
        expected: amountIn.toString(),
      },
      balance: { token: inToken.address, actual: params.balance.toString(), expected: amountIn.toString() },
    },
    approvalTxns: params.approvalTxns,
    steps: {
      bridge: {
        inputAmount: amountIn.toString(),
        outputAmount: quote.expectedOut.toString(),
        tokenIn: inToken,
        tokenOut: acrossToken(tokenOut),
        fees: { ...fee(quote.providerFeeIn), details: bridgeDetails },
        provider: 'across',
      },
    },
    inputToken: inToken,
    outputToken: acrossToken(tokenOut),
    // api/swap/_utils.ts buildBaseSwapResponseJson: the bridge's input token under refundOnOrigin, else its output.
    refundToken: params.refundOnOrigin ? inToken : acrossToken(tokenOut),
    fees: {
      total: {
        ...fee(quote.providerFeeIn + quote.appFeeIn),
        details: {
          type: 'total-breakdown',
          swapImpact: fee(0n),
          app: fee(quote.appFeeIn),
          bridge: { ...fee(quote.providerFeeIn), details: bridgeDetails },
        },
      },
      originGas: {
        amount: params.originGas.amount.toString(),
        amountUsd: formatMicroUsd(
          usdValue(
            params.originGas.amount,
            params.originGas.token.decimals,
            prices[params.originGas.token.symbol] ?? 0n,
          ),
        ),
        token: acrossToken(params.originGas.token),
      },
    },
    inputAmount: amountIn.toString(),
    maxInputAmount: amountIn.toString(),
    expectedOutputAmount: quote.expectedOut.toString(),
    minOutputAmount: quote.minOut.toString(),
    expectedFillTime: quote.etaSeconds,
    quoteExpiryTimestamp: params.quoteExpiryTimestamp,
    swapTx: params.swapTx,
    id: params.id,
  };
}

/**
 * Whether the route bridges one asset (B2B, no destination swap): the sandbox's stand-in for Across's bridgeable
 * output check (api/swap/_utils.ts isOutputTokenBridgeable). ETH and WETH count as one asset.
 */
export function acrossSameAsset(quote: ComputedQuote): boolean {
  const asset = (symbol: string) => (symbol === 'ETH' ? 'WETH' : symbol);
  return asset(quote.tokenIn.symbol) === asset(quote.tokenOut.symbol);
}

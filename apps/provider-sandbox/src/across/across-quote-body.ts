import { type Address, type Hex } from 'viem';
import { usdValue, type ComputedQuote, type QuoteToken } from '../pricing/compute-quote';
import { formatMicroUsd } from '../pricing/format-usd';
import { type PriceTable } from '../pricing/price-table';
import { isExtraTokenSymbol } from '../chains/sandbox-deployment-plan';
import { acrossToken } from './across-token';
import { ACROSS_REFUND_AFTER_EXPIRY_SECONDS } from './across-refund-timing';

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
  /** `cctp` for a leg routed over CCTP (frontend api/_bridges/cctp/strategy.ts `provider: name`); default across. */
  bridgeProvider?: 'across' | 'cctp';
  /** Who a refund would pay: the query's refundAddress, else the depositor. */
  refundTo: Address;
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
    crossSwapType: sameAsset
      ? 'bridgeableToBridgeable'
      : acrossOutputBridgeable(quote)
        ? 'anyToBridgeable'
        : 'bridgeableToAny',
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
        // A CCTP bridge quote's fees are `{pct, amount, token}` (strategy.ts getCctpBridgeFees).
        fees:
          params.bridgeProvider === 'cctp'
            ? { pct: fee(quote.providerFeeIn).pct, amount: quote.providerFeeIn.toString(), token: inToken }
            : { ...fee(quote.providerFeeIn), details: bridgeDetails },
        provider: params.bridgeProvider ?? 'across',
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
    // docs.across.to /introduction/refunds.mdx: every quote carries one. A SpokePool deposit has a refund step: in the
    // input token on the origin, to the refund address, expected a bundle and a challenge period after the deadline
    // (the sandbox's own refund path, across-refund-timing.ts). A CCTP-routed leg has none: the burn always mints on
    // the destination (`{supported: false, reason: "irreversible_rail"}`, the same page).
    refundPolicy:
      params.bridgeProvider === 'cctp'
        ? {
            supported: false,
            reason: 'irreversible_rail',
            message: 'CCTP burns are irreversible: the funds are always minted on the destination',
          }
        : {
            supported: true,
            token: { chainId: tokenIn.chainId, address: tokenIn.address },
            refundAddress: { address: params.refundTo, chain: { chainId: tokenIn.chainId } },
            expectedRefundTimeMs: ACROSS_REFUND_AFTER_EXPIRY_SECONDS * 1000,
          },
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

/**
 * Whether Across bridges the output token itself (api/_dexes/utils.ts getCrossSwapTypes, isOutputTokenBridgeable):
 * the sandbox's standard tokens (USDC, USDT, WETH, ETH) are, its extra BENCH tokens are not. A route to a bridgeable
 * output that is not the input's asset is quoted by Across both with an origin swap (A2B) and with a destination swap
 * (B2A), and the origin swap is kept unless the destination swap delivers more than 1/0.9 of it
 * (api/_dexes/cross-swap-service.ts selectBestCrossSwapQuote, ORIGIN_SWAP_PREFERENCE_THRESHOLD); at the sandbox's
 * prices both deliver the same, so such a route has no destination swap. Only a non-bridgeable output has one.
 */
export function acrossOutputBridgeable(quote: ComputedQuote): boolean {
  return !isExtraTokenSymbol(quote.tokenOut.symbol);
}

import { encodeFunctionData, pad, type Address, type Hex } from 'viem';
import { TokenMessengerV2Artifact } from '../contracts/artifacts';
import { type ComputedQuote } from '../pricing/compute-quote';
import { CCTP_FINALITY_FAST, cctpDomainOf } from './cctp-message';

/**
 * The fast-transfer fee the sandbox's Circle charges, in bps of the burned amount. Circle's fee API answers per
 * route (iris-api /v2/burn/USDC/fees/{source}/{destination} `minimumFee`, read by across-protocol/frontend
 * api/_bridges/cctp/utils/fees.ts); the sandbox charges 1 bps on every route.
 */
export const CCTP_FAST_FEE_BPS = 1n;

/**
 * frontend api/_bridges/cctp/strategy.ts getQuoteForExactInput, fast mode: `maxFee = divCeil(input * bps, 10_000)`
 * (the fee rounds up so the fast transfer is always paid for).
 */
export function cctpFastFee(amount: bigint): bigint {
  return (amount * CCTP_FAST_FEE_BPS + 9_999n) / 10_000n;
}

/** frontend api/_bridges/cctp/utils/fill-times.ts CCTP_FILL_TIME_ESTIMATES.fast: Ethereum 20 s, Arbitrum and Base 8 s. */
export function cctpFastFillTimeSeconds(originChainId: number): number {
  return originChainId === 1 ? 20 : 8;
}

/**
 * Whether the Swap API would route this leg over CCTP: USDC to USDC between two chains with a CCTP domain (frontend
 * strategy.ts `isRouteSupported`, B2B only), and no app fee (`buildTxForAllowanceHolder` refuses one: "App fee is
 * not supported for CCTP bridge transfers"; the sandbox then keeps the SpokePool route).
 */
export function cctpRoutable(quote: ComputedQuote): boolean {
  return (
    quote.tokenIn.symbol === 'USDC' &&
    quote.tokenOut.symbol === 'USDC' &&
    quote.appFeeBps === 0 &&
    cctpDomainOf(quote.tokenIn.chainId) !== null &&
    cctpDomainOf(quote.tokenOut.chainId) !== null
  );
}

/**
 * The quote of a CCTP leg, fast mode (strategy.ts getQuoteForExactInput): output = input - maxFee, and the minimum
 * output is that output (`minOutputAmount: outputAmount`); the bridge fee is maxFee, in input units.
 */
export function cctpQuote(quote: ComputedQuote): ComputedQuote {
  const maxFee = cctpFastFee(quote.amountIn);
  const out = quote.amountIn - maxFee;
  return {
    ...quote,
    grossOut: quote.amountIn,
    providerFeeOut: maxFee,
    providerFeeIn: maxFee,
    providerFlatFeeIn: 0n,
    expectedOut: out,
    minOut: out,
    etaSeconds: cctpFastFillTimeSeconds(quote.tokenIn.chainId),
    expectedOutUsd: out,
    minOutUsd: out,
    providerFeeUsd: maxFee,
  };
}

/**
 * The swap transaction's calldata: TokenMessengerV2 `depositForBurn` as frontend strategy.ts
 * `_buildCctpTxForAllowanceHolderEvm` builds it (mintRecipient the recipient, destinationCaller Across's CCTP
 * finalizer: here the sandbox finalizer's Multicall3, which sends the mints; maxFee and minFinalityThreshold 1000 for
 * fast mode). The Swap API appends its integrator and swap-API markers after the arguments; the sandbox does not.
 */
export function depositForBurnCalldata(params: {
  amount: bigint;
  destinationChainId: number;
  recipient: Address;
  usdc: Address;
  finalizer: Address;
  maxFee: bigint;
}): Hex {
  const destinationDomain = cctpDomainOf(params.destinationChainId);
  if (destinationDomain === null) throw new Error(`chain ${params.destinationChainId} has no CCTP domain`);
  return encodeFunctionData({
    abi: TokenMessengerV2Artifact.abi,
    functionName: 'depositForBurn',
    args: [
      params.amount,
      destinationDomain,
      pad(params.recipient, { size: 32 }),
      params.usdc,
      pad(params.finalizer, { size: 32 }),
      params.maxFee,
      CCTP_FINALITY_FAST,
    ],
  });
}

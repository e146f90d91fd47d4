import { convertByValue } from './convert-by-value';
import { type PriceTable } from './price-table';
import { type ProviderEconomics } from './provider-economics';
import { AmountTooLowError, QuoteParamError, SameChainRouteError, UnknownTokenError } from './quote-errors';
import { type SandboxProvider } from './sandbox-provider';

export interface QuoteToken {
  chainId: number;
  symbol: string;
  address: string;
  decimals: number;
}

export interface QuoteRequest {
  provider: SandboxProvider;
  originChainId: number;
  destinationChainId: number;
  inputToken: string;
  outputToken: string;
  amountIn: bigint;
  slippageBps: number;
  appFeeBps: number;
}

export interface QuoteMarket {
  tokens: readonly QuoteToken[];
  prices: PriceTable;
  economics: ProviderEconomics;
}

/** Every amount in base units of its token; every `*Usd` in micro-USD. */
export interface ComputedQuote {
  provider: SandboxProvider;
  tokenIn: QuoteToken;
  tokenOut: QuoteToken;
  amountIn: bigint;
  grossOut: bigint;
  providerFeeOut: bigint;
  appFeeOut: bigint;
  expectedOut: bigint;
  minOut: bigint;
  /** The same fees in input units: Relay and Across denominate fees in the input token. */
  providerFeeIn: bigint;
  /** The flat part of providerFeeIn (Relay reports it as destination gas, the rest as service fee). */
  providerFlatFeeIn: bigint;
  appFeeIn: bigint;
  slippageBps: number;
  appFeeBps: number;
  etaSeconds: number;
  amountInUsd: bigint;
  expectedOutUsd: bigint;
  minOutUsd: bigint;
  providerFeeUsd: bigint;
  appFeeUsd: bigint;
}

const BPS = 10_000n;

/**
 * Prices a cross-chain transfer: the input's USD value becomes output units (integer math across decimals),
 * the provider fee (bps + flat) and the app fee come off that gross output, and slippage bounds the minimum.
 */
export function computeQuote(request: QuoteRequest, market: QuoteMarket): ComputedQuote {
  const { originChainId, destinationChainId, amountIn, slippageBps, appFeeBps } = request;
  if (originChainId === destinationChainId) throw new SameChainRouteError(originChainId);
  assertBps('slippageBps', slippageBps);
  assertBps('appFeeBps', appFeeBps);
  if (amountIn <= 0n) throw new QuoteParamError('amountIn', `amount must be positive, got ${amountIn}`);

  const tokenIn = findToken(market, originChainId, request.inputToken);
  const tokenOut = findToken(market, destinationChainId, request.outputToken);
  const priceIn = market.prices[tokenIn.symbol];
  const priceOut = market.prices[tokenOut.symbol];
  const { feeBps, flatFeeMicroUsd, etaSeconds } = market.economics;

  const grossOut = convertByValue(
    amountIn,
    { decimals: tokenIn.decimals, priceMicroUsd: priceIn },
    { decimals: tokenOut.decimals, priceMicroUsd: priceOut },
  );
  const flatOut = (flatFeeMicroUsd * 10n ** BigInt(tokenOut.decimals)) / priceOut;
  const providerFeeOut = (grossOut * BigInt(feeBps)) / BPS + flatOut;
  const appFeeOut = (grossOut * BigInt(appFeeBps)) / BPS;
  const expectedOut = grossOut - providerFeeOut - appFeeOut;

  const flatIn = (flatFeeMicroUsd * 10n ** BigInt(tokenIn.decimals)) / priceIn;
  const providerFeeIn = (amountIn * BigInt(feeBps)) / BPS + flatIn;
  const appFeeIn = (amountIn * BigInt(appFeeBps)) / BPS;
  if (expectedOut <= 0n) throw new AmountTooLowError(amountIn, providerFeeIn + appFeeIn);

  const minOut = (expectedOut * (BPS - BigInt(slippageBps))) / BPS;
  const usdOut = (amount: bigint) => usdValue(amount, tokenOut.decimals, priceOut);
  return {
    provider: request.provider,
    tokenIn,
    tokenOut,
    amountIn,
    grossOut,
    providerFeeOut,
    appFeeOut,
    expectedOut,
    minOut,
    providerFeeIn,
    providerFlatFeeIn: flatIn,
    appFeeIn,
    slippageBps,
    appFeeBps,
    etaSeconds,
    amountInUsd: usdValue(amountIn, tokenIn.decimals, priceIn),
    expectedOutUsd: usdOut(expectedOut),
    minOutUsd: usdOut(minOut),
    providerFeeUsd: usdOut(providerFeeOut),
    appFeeUsd: usdOut(appFeeOut),
  };
}

/** Micro-USD value of a base-unit amount. */
export function usdValue(amount: bigint, decimals: number, priceMicroUsd: bigint): bigint {
  return (amount * priceMicroUsd) / 10n ** BigInt(decimals);
}

function findToken(market: QuoteMarket, chainId: number, address: string): QuoteToken {
  const wanted = address.toLowerCase();
  const token = market.tokens.find((t) => t.chainId === chainId && t.address.toLowerCase() === wanted);
  // A token without a price cannot be valued, so it is as unknown as a missing one.
  if (!token || market.prices[token.symbol] === undefined) throw new UnknownTokenError(chainId, address);
  return token;
}

function assertBps(param: 'slippageBps' | 'appFeeBps', value: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= 10_000) {
    throw new QuoteParamError(param, `${param} must be an integer in [0, 10000), got ${value}`);
  }
}

import { type Address, type Hex } from 'viem';
import { quoteFailure, quoteFailureFromHttp } from '../failures/quote-failure';
import { fetchJson, type HttpSender } from '../http/fetch-json';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type QuoteResult } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { address, hexData, record } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { MAYAN_ERROR_CODES } from './mayan-error-codes';
import { MAYAN_SDK_VERSION_PARAM } from './mayan-sdk-version';
import { type SwiftQuote } from './swift-quote';

/** The router call that turns the source token into the Swift input token inside the forwarder. */
export interface SwiftSwapRoute {
  swapRouterAddress: Address;
  swapRouterCalldata: Hex;
}

/**
 * Query of `GET {PRICE_URL}/get-swap/evm`, which the SDK asks before building any Swift order whose source token
 * is not the Swift input (swap-sdk v15.2.0 src/evm/evmSwift.ts `getSwiftFromEvmTxPayload` → src/api.ts
 * `getSwapEvm`, which appends `sdkVersion` and drops undefined values); a native wrap-and-lock order is one.
 */
export function swapRouteQuery(
  quote: SwiftQuote,
  options: { forwarderAddress: Address; referrer: Address | null; apiKey: string | null },
): Record<string, string | number | null> {
  return {
    forwarderAddress: options.forwarderAddress,
    slippageBps: quote.slippageBps,
    referrerAddress: options.referrer,
    fromToken: quote.fromToken,
    middleToken: quote.swiftInputContract,
    chainName: quote.fromChain.name,
    amountIn64: quote.effectiveAmountIn.toString(),
    apiKey: options.apiKey,
    sdkVersion: MAYAN_SDK_VERSION_PARAM,
  };
}

/** Its answer, `{swapRouterAddress, swapRouterCalldata}` (the type of `getSwapEvm`). */
export function readSwapRoute(body: unknown): SwiftSwapRoute {
  const answer = record(body, 'body');
  return {
    swapRouterAddress: address(answer.swapRouterAddress, 'swapRouterAddress'),
    swapRouterCalldata: hexData(answer.swapRouterCalldata, 'swapRouterCalldata'),
  };
}

/**
 * Asks the price API for the swap route of `quote`. Every failure is a quote failure: the route is part of
 * building the quote's calls, so without it there is no quote.
 */
export async function requestSwapRoute(
  http: HttpSender,
  config: ProvidersConfig['mayan'],
  request: { quote: SwiftQuote; referrer: Address | null; signal: AbortSignal },
): Promise<{ ok: true; route: SwiftSwapRoute } | Extract<QuoteResult, { ok: false }>> {
  const query = swapRouteQuery(request.quote, {
    forwarderAddress: config.forwarderAddress,
    referrer: request.referrer,
    apiKey: config.apiKey,
  });
  const result = await fetchJson(http, {
    method: 'GET',
    url: providerUrl(config.priceUrl, '/get-swap/evm', query),
    signal: request.signal,
    timeoutMs: config.timeoutMs,
    metric: { provider: 'mayan', operation: 'swap_route' },
  });
  const failed = (failure: QuoteResult) => failure as Extract<QuoteResult, { ok: false }>;
  if (!isJsonSuccess(result)) return failed(quoteFailureFromHttp('mayan', result, MAYAN_ERROR_CODES));
  try {
    return { ok: true, route: readSwapRoute(result.body) };
  } catch (error) {
    if (!(error instanceof MalformedResponseError)) throw error;
    return failed(
      quoteFailure('mayan', 'provider_unavailable', `mayan swap route malformed: ${error.message}`, {
        httpStatus: result.status,
      }),
    );
  }
}

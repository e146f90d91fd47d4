import { quoteFailure } from '../failures/quote-failure';
import { type QuoteSlice } from '../provider-adapter.port';
import { type QuoteResult } from '../provider-quote';
import { record } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { type MayanChain } from './mayan-chains';
import {
  MAYAN_SDK_VERSION,
  MAYAN_SDK_VERSION_PARAM,
  readMinimumSdkVersion,
  supportsSdkVersion,
} from './mayan-sdk-version';
import { type SwiftForwarderMethod, swiftForwarderMethod } from './swift-calls';
import { bestSwiftQuote, readSwiftQuote, type SwiftQuote } from './swift-quote';

type QuoteFailureResult = Extract<QuoteResult, { ok: false }>;

export type MayanAnswer = { ok: true; quote: SwiftQuote; method: SwiftForwarderMethod } | QuoteFailureResult;

/**
 * A 2xx quote answer as the SDK takes it (swap-sdk v15.2.0 src/api.ts `fetchQuote`): first `minimumSdkVersion`,
 * refused when newer than the SDK release we reproduce ("Swap SDK is outdated!", code 9999: Mayan has changed
 * what a client must build), then the best Swift quote and the forwarder call it needs. Every complaint is a
 * failure: provider_unavailable for an answer we cannot trust, route_unavailable for a route we do not build.
 */
export function readMayanAnswer(
  httpStatus: number,
  body: unknown,
  slice: QuoteSlice,
  chains: { from: MayanChain; to: MayanChain },
): MayanAnswer {
  try {
    const answer = record(body, 'body');
    const minimum = readMinimumSdkVersion(answer.minimumSdkVersion);
    if (!supportsSdkVersion(minimum))
      return quoteFailure(
        'mayan',
        'provider_unavailable',
        `mayan requires swap SDK ${minimum.join('.')} or newer; this adapter builds as ${MAYAN_SDK_VERSION.join('.')} (sdkVersion ${MAYAN_SDK_VERSION_PARAM}): "Swap SDK is outdated!"`,
        { httpStatus },
      ) as QuoteFailureResult;
    const best = bestSwiftQuote(answer);
    if (best === null) throw new UnusableRouteError('no Swift route offered');
    const quote = readSwiftQuote(best, chains);
    return { ok: true, quote, method: swiftForwarderMethod(slice, quote) };
  } catch (error) {
    if (error instanceof MalformedResponseError)
      return quoteFailure('mayan', 'provider_unavailable', `mayan answered malformed: ${error.message}`, {
        httpStatus,
      }) as QuoteFailureResult;
    if (error instanceof UnusableRouteError)
      return quoteFailure('mayan', 'route_unavailable', `mayan: ${error.message}`, {
        httpStatus,
      }) as QuoteFailureResult;
    throw error;
  }
}

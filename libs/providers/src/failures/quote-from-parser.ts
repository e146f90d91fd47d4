import { type RoutableProvider } from '../provider-adapter.port';
import { type ProviderQuote, type QuoteResult } from '../provider-quote';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { quoteFailure } from './quote-failure';

/** Runs a response parser; its typed complaints become failures, anything else is a bug and propagates. */
export function quoteFromParser(
  provider: RoutableProvider,
  httpStatus: number,
  parse: () => ProviderQuote,
): QuoteResult {
  try {
    return { ok: true, quote: parse() };
  } catch (error) {
    if (error instanceof MalformedResponseError)
      return quoteFailure(
        provider,
        'provider_unavailable',
        `${provider} answered malformed: ${error.message}`,
        {
          httpStatus,
        },
      );
    if (error instanceof UnusableRouteError)
      return quoteFailure(provider, 'route_unavailable', `${provider}: ${error.message}`, { httpStatus });
    throw error;
  }
}

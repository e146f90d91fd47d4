import { type QuoteFailureReason } from '../provider-quote';

/** A provider's error codes that mean something to us; every other 4xx code falls back by status. */
export interface QuoteErrorCodes {
  routeUnavailable: readonly string[];
  amountTooLow: readonly string[];
  /** Codes the provider calls transient (retry later), whatever HTTP status they arrive with. */
  providerUnavailable?: readonly string[];
}

/**
 * What a non-2xx quote answer means for the slice. 429 and 5xx are the provider's trouble (retry later or use
 * another provider); 401/403 mean it refuses us as a client, whatever the route. Any other 4xx refuses this
 * particular request (unknown token, unsupported pair, amount too high), which is a route problem.
 */
export function classifyQuoteError(
  status: number,
  code: string | null,
  codes: QuoteErrorCodes,
): QuoteFailureReason {
  if (status === 429 || status >= 500) return 'provider_unavailable';
  if (code !== null && codes.providerUnavailable?.includes(code)) return 'provider_unavailable';
  if (code !== null && codes.amountTooLow.includes(code)) return 'amount_too_low';
  if (code !== null && codes.routeUnavailable.includes(code)) return 'route_unavailable';
  if (status === 401 || status === 403 || status === 407 || status === 408) return 'provider_unavailable';
  if (status >= 400) return 'route_unavailable';
  return 'provider_unavailable';
}

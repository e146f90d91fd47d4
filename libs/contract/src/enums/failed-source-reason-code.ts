/**
 * `failedSources[].reasonCode`. The spec documents the first five; `amount_too_low` is ours, for a source
 * whose amount is below every provider's minimum, and `source_uneconomic` for one left out at the request's
 * `excludeUneconomicSources` because its gas would cost too much of its value (docs/source-economics.md).
 */
export const KNOWN_FAILED_SOURCE_REASON_CODES = [
  'no_allowed_provider',
  'provider_unavailable',
  'route_unavailable',
  'same_chain_unsupported',
  'provider_timeout',
  'amount_too_low',
  'source_uneconomic',
] as const;

export type KnownFailedSourceReasonCode = (typeof KNOWN_FAILED_SOURCE_REASON_CODES)[number];

/**
 * The spec makes reasonCode an open set: partners must tolerate values they do not know, so the type stays
 * open while still offering completion for the known values.
 */
export type FailedSourceReasonCode = KnownFailedSourceReasonCode | (string & {});

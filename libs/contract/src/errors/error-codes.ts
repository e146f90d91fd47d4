/**
 * The one registry of error codes (`ErrorResponse.code`). Each code is stable: partners branch on it.
 * docs/errors.md documents every entry for partners; a test keeps the two in step.
 */
export interface ErrorCodeSpec {
  status: number;
  /** One sentence for partners: when this code is returned. */
  description: string;
}

export const ERROR_CODES = {
  // Transport and HTTP
  route_not_found: { status: 404, description: 'No endpoint at this path.' },
  method_not_allowed: {
    status: 405,
    description: 'The path exists but not for this HTTP method; see the Allow header.',
  },
  payload_too_large: { status: 413, description: 'The request body exceeds the documented size limit.' },
  unsupported_media_type: {
    status: 415,
    description: 'A POST body must be sent with Content-Type application/json.',
  },
  content_encoding_unsupported: {
    status: 415,
    description: 'Content-Encoding other than absent or identity.',
  },
  invalid_json: { status: 400, description: 'The body is not well-formed JSON.' },
  invalid_request_body: {
    status: 400,
    description:
      'The body is not a JSON object of the documented shape, or is nested deeper than 32 levels or holds more than 20 000 values.',
  },
  unknown_field: {
    status: 400,
    description: 'The body carries a field the contract does not define (often a typo).',
  },
  request_body_not_allowed: { status: 400, description: 'A GET request carried a body.' },
  idempotency_key_not_allowed: {
    status: 400,
    description: 'A GET request carried an Idempotency-Key header.',
  },
  internal_error: {
    status: 500,
    description: 'An unexpected server fault. Retry the same bytes with the same key.',
  },
  not_implemented: {
    status: 501,
    description: 'The endpoint is authenticated and validated but not yet served.',
  },
  dependency_unavailable: {
    status: 503,
    description: 'A service dependency did not answer in time; retry after Retry-After.',
  },
  malformed_http_request: {
    status: 400,
    description:
      'The HTTP message could not be parsed (request line, header syntax, chunked framing, or not HTTP/1.1); the connection is closed.',
  },
  request_timeout: {
    status: 408,
    description:
      'The request headers or body did not arrive within the server timeout; the connection is closed.',
  },
  request_header_fields_too_large: {
    status: 431,
    description: 'The request line and headers exceed the server limit (16 KiB); the connection is closed.',
  },
  connection_limit_reached: {
    status: 503,
    description:
      'The server holds its maximum of open connections; retry after Retry-After on a new connection.',
  },
  client_connection_limit_reached: {
    status: 429,
    description:
      'This client address holds its maximum of open connections to the instance; reuse one, or retry after Retry-After.',
  },
  client_body_limit_reached: {
    status: 429,
    description:
      'Request bodies from this client address already hold their maximum of bytes on the instance; retry after Retry-After.',
  },
  body_limit_reached: {
    status: 503,
    description: "Request bodies already hold the instance's maximum of bytes; retry after Retry-After.",
  },

  // Authentication (spec: Authentication errors)
  external_auth_signature_invalid: {
    status: 401,
    description: 'Signed bytes differ from transmitted bytes, or wrong path, partner or secret.',
  },
  external_auth_request_invalid: {
    status: 401,
    description:
      'The URL carries a query string or another rejected path form, or a protected header is duplicated.',
  },
  external_auth_timestamp_invalid: {
    status: 401,
    description: 'X-Timestamp is not decimal epoch milliseconds.',
  },
  external_auth_timestamp_expired: {
    status: 401,
    description: 'X-Timestamp is more than five minutes from server time.',
  },
  external_auth_nonce_invalid: {
    status: 401,
    description: 'X-Nonce is outside the allowed characters or length (16 to 128 of A-Za-z0-9._~-).',
  },
  external_auth_nonce_conflict: {
    status: 409,
    description: 'The nonce (or, for a v1 partner, the signature) was already used for a different request.',
  },
  external_auth_headers_required: {
    status: 401,
    description:
      'A required authentication header (version, nonce, partner id, timestamp or signature) is missing.',
  },
  external_auth_version_mismatch: {
    status: 401,
    description: "The auth-version header disagrees with the partner's server-side configuration.",
  },
  external_auth_body_required: {
    status: 401,
    description:
      'A POST signed with the legacy v1 scheme has an empty body (its signature would equal a GET’s); send {}.',
  },
  partner_disabled: {
    status: 403,
    description: 'The partner is authenticated but disabled by configuration.',
  },
  rate_limited: {
    status: 429,
    description:
      "The partner's per-minute request budget (weighted by the work a request causes) is spent; retry after Retry-After seconds.",
  },
  unauthenticated_rate_limited: {
    status: 429,
    description:
      'Too many requests from this client address failed authentication; retry after Retry-After seconds.',
  },

  // Idempotency
  idempotency_key_required: { status: 400, description: 'A POST request has no Idempotency-Key header.' },
  idempotency_key_invalid: { status: 400, description: 'The Idempotency-Key is not 1 to 255 characters.' },
  idempotency_key_reused: {
    status: 422,
    description: 'The Idempotency-Key was already used with a different body or endpoint.',
  },
  idempotency_request_in_progress: {
    status: 409,
    description: 'A request with this Idempotency-Key is still running; retry after Retry-After.',
  },

  // Quote request validation
  invalid_wallet_address: {
    status: 400,
    description: 'walletAddress is not an EVM address (0x followed by 40 hex characters).',
  },
  invalid_recipient: { status: 400, description: 'recipient is not an EVM address.' },
  invalid_sources: { status: 400, description: 'sources is not an array of 1 to 50 source objects.' },
  duplicate_source: {
    status: 400,
    description: 'Two sources name the same token (chainId and case-insensitive address).',
  },
  invalid_chain_id: { status: 400, description: 'A chainId is not a positive integer (at most 2^53-1).' },
  invalid_token_address: { status: 400, description: 'A token address is not an EVM address.' },
  invalid_amount: {
    status: 400,
    description: 'An amount is not a positive base-10 integer string of at most 2^256-1.',
  },
  invalid_decimals: { status: 400, description: 'decimals is not an integer from 0 to 255.' },
  invalid_symbol: { status: 400, description: 'A symbol is not a string of 1 to 64 characters.' },
  invalid_usd_value: {
    status: 400,
    description:
      'usdValue / priceUSD is not a non-negative decimal string of at most 30 integer and 18 fraction digits (positive where required).',
  },
  usd_value_required: {
    status: 400,
    description: 'The multi-target form needs a positive usdValue on every source.',
  },
  target_required: {
    status: 400,
    description: 'Neither target nor targets is present; exactly one is required.',
  },
  target_conflict: {
    status: 400,
    description: 'Both target and targets are present; exactly one is allowed.',
  },
  invalid_target: {
    status: 400,
    description:
      'target is not an object of the documented shape, targets is not an array of 1 to 10 of them, or two targets share an id.',
  },
  target_token_mismatch: {
    status: 400,
    description: 'target.address differs from target.targetToken.address.',
  },
  invalid_allocation_percent: {
    status: 400,
    description:
      'allocationPercent is not a number, is not 100 in the single-target form, or in the multi-target form is missing, outside (0, 100] or the values do not sum to 100.',
  },
  invalid_slippage_bps: {
    status: 400,
    description: 'slippageBps is 0 or outside 1 to 10000, or not an integer.',
  },
  invalid_max_wait_ms: { status: 400, description: 'maxWaitMs is not an integer from 1000 to 18000.' },
  invalid_fee_bps: {
    status: 400,
    description: "feeBps is not a JSON integer from 0 to the partner's configured maximum.",
  },
  invalid_allow_partial: { status: 400, description: 'allowPartial is not a boolean.' },
  invalid_exclude_uneconomic_sources: {
    status: 400,
    description: 'excludeUneconomicSources is not a boolean.',
  },
  invalid_uneconomic_threshold_bps: {
    status: 400,
    description: 'uneconomicThresholdBps is not an integer from 100 to 10000.',
  },
  invalid_allowed_providers: {
    status: 400,
    description: 'allowedProviders is not an array of ProviderName values.',
  },
  invalid_callback_url: {
    status: 400,
    description: "callbackUrl is not an http(s) URL equal to the partner's configured callback URL.",
  },

  // Prepare request validation
  invalid_wallet_context: {
    status: 400,
    description:
      'walletContext is not an object of the documented shape (connector fields at most 256 characters, walletCapabilities a JSON object).',
  },

  // Submitted request validation
  invalid_chain_results: {
    status: 400,
    description:
      'chainResults is not an array of 1 to 16 chain result objects, two entries share a chainId, or an entry carries neither a bundleId nor a tx hash.',
  },
  invalid_bundle_id: {
    status: 400,
    description: 'bundleId is not a non-empty string of at most 255 characters.',
  },
  invalid_tx_hashes: {
    status: 400,
    description:
      'txHashes is not an array of at most 64 transaction hashes (0x followed by 64 hex characters).',
  },
  invalid_wallet_authorization: {
    status: 400,
    description: 'walletAuthorization.signature is not 0x followed by 130 hex characters.',
  },
  invalid_submitted_at: { status: 400, description: 'submittedAt is not a non-negative number or null.' },
  invalid_quote_results: { status: 400, description: 'quoteResults is not an array of at most 64 objects.' },

  // Resources and lifecycle
  intent_session_not_found: { status: 404, description: 'No intent session with this id for this partner.' },
  intent_session_expired: { status: 409, description: "Prepare was called after the quote's expiresAt." },
  intent_session_not_ready: {
    status: 409,
    description: 'The intent session is not ready (partial_only or unavailable).',
  },
  quote_changed: {
    status: 409,
    description:
      "A provider's quote expired, or would end before the signable window plus execution time, and its fresh quote would deliver less than the quoted minimum or end as soon: quote again.",
  },
  intent_session_already_prepared: {
    status: 409,
    description: 'The intent session was already prepared under another Idempotency-Key.',
  },
  attempt_not_found: { status: 404, description: 'No attempt with this id for this partner.' },
  unknown_chain: {
    status: 400,
    description: 'A chain result names a chainId the attempt has no chain action on.',
  },
  evidence_deadline_passed: {
    status: 409,
    description: "Initial evidence arrived after the attempt's evidenceDeadlineAt.",
  },
  contract_wallet_unsupported: {
    status: 400,
    description: 'The wallet is a contract wallet (ERC-1271); only EOA and EIP-7702 signers are supported.',
  },
  wallet_authorization_invalid: {
    status: 400,
    description: 'The signature does not recover to the attempt wallet over the prepared authorization.',
  },
  wallet_authorization_expired: {
    status: 400,
    description: "A signature was reported at or after the authorization's own message.expiresAt.",
  },
  evidence_limit_exceeded: {
    status: 400,
    description:
      'The report would take the evidence recorded for one chain of the attempt past its bound of transaction hashes or bundle ids.',
  },

  // Lookups (docs/lookups.md)
  search_filter_required: {
    status: 400,
    description: 'An attempt search names neither walletAddress nor recipient.',
  },
  invalid_status_filter: {
    status: 400,
    description: 'status is not an AttemptStatus or a non-empty array of distinct AttemptStatus values.',
  },
  invalid_time_range: {
    status: 400,
    description:
      'createdFrom / createdTo is not an ISO 8601 instant with a zone, or createdTo is not later than createdFrom.',
  },
  invalid_limit: { status: 400, description: 'limit is not an integer from 1 to 100.' },
  invalid_cursor: {
    status: 400,
    description: 'cursor is not a nextCursor this service returned for a search with the same filters.',
  },
  invalid_transaction_hash: {
    status: 400,
    description: 'The transaction hash in the path is not 0x followed by 64 hex characters.',
  },
  transaction_not_found: {
    status: 404,
    description: 'No attempt of this partner knows this transaction on this chain (yet).',
  },

  // Webhook control plane and live status (docs/webhooks.md)
  invalid_webhook_cursor: {
    status: 400,
    description:
      'The cursor in the path is not a nextCursor this service returned for the webhook event list.',
  },
  webhook_event_not_found: {
    status: 404,
    description: 'None of your attempts has a webhook event with this id.',
  },
  webhook_delivery_pending: {
    status: 409,
    description:
      'The webhook event is queued and not tried yet: it goes out in its turn, nothing to redeliver.',
  },
  webhook_redelivery_rate_limited: {
    status: 429,
    description:
      'The webhook event was already sent again (redelivered or retried now) 10 times in the last hour; retry after Retry-After seconds.',
  },
  invalid_recover_range: {
    status: 400,
    description:
      'from / to is not an ISO 8601 instant with a zone, to is not later than from, or the range spans more than 7 days.',
  },
  invalid_recover_continuation: {
    status: 400,
    description: 'continuation is not one this service returned for a recovery of the same from and to.',
  },
  invalid_last_event_id: {
    status: 400,
    description: 'Last-Event-ID names no lifecycle event of this attempt.',
  },
  live_stream_limit_reached: {
    status: 429,
    description:
      "The maximum of open live status streams is reached: yours (20 per service instance) or the instance's (1 000, all partners together); close one or retry after Retry-After.",
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

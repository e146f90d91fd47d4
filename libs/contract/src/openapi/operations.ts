import { type ErrorCode } from '../errors/error-codes';
import { WEBHOOK_CONTROL_LIMITS } from '../webhook-control/webhook-control-limits';
import {
  ATTEMPT_SEARCH_RESPONSE_EXAMPLE,
  ATTEMPT_SNAPSHOT_EXAMPLE,
  PING_RESPONSE_EXAMPLE,
  PREPARE_RESPONSE_EXAMPLE,
  QUOTE_RESPONSE_EXAMPLE,
  REQUEST_EXAMPLES,
  SUBMITTED_RESPONSE_EXAMPLE,
  TRANSACTION_ATTEMPT_RESPONSE_EXAMPLE,
} from './examples';
import {
  LIVE_STATUS_STREAM_CONTENT,
  WEBHOOK_EVENTS_RESPONSE_EXAMPLE,
  WEBHOOK_RECOVER_NEXT_PAGE_REQUEST_EXAMPLE,
  WEBHOOK_RECOVER_REQUEST_EXAMPLE,
  WEBHOOK_RECOVER_RESPONSE_EXAMPLE,
  WEBHOOK_REDELIVER_RESPONSE_EXAMPLE,
} from './webhook-control-openapi';

/**
 * The v1 operations. Their names are the gateway's route names (libs/gateway `ROUTES`), which a test checks
 * together with each method and path, so a route cannot be added to the gateway without the document.
 */
export const OPERATION_NAMES = [
  'ping',
  'quote',
  'prepare',
  'submitted',
  'status',
  'searchAttempts',
  'transactionAttempt',
  'webhookEvents',
  'webhookEventsAfter',
  'webhookRedeliver',
  'webhookRecover',
  'attemptEvents',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface OperationSpec {
  method: 'get' | 'post';
  /** Relative to API_PREFIX, OpenAPI notation (`{attemptId}`). */
  path: string;
  tag: string;
  summary: string;
  description: string;
  pathParameter?: { name: string; description: string };
  /** Several path parameters, in path order (instead of `pathParameter`). */
  pathParameters?: { name: string; description: string }[];
  requestBody?: { schema: string; required: boolean; examples: Record<string, unknown> };
  response: { schema: string; description: string; example: unknown };
  /** A 200 that is not JSON (the live status stream: `text/event-stream`): its `content` as the document shows it. */
  responseContent?: Record<string, unknown>;
  /** Optional request headers of this operation beyond authentication (components/parameters names). */
  headerParameters?: string[];
}

export const OPERATIONS: Record<OperationName, OperationSpec> = {
  ping: {
    method: 'get',
    path: '/ping',
    tag: 'Connectivity',
    summary: 'Check authentication and connectivity',
    description:
      'Answers 200 with your partner id when the request is correctly signed. No body, no Idempotency-Key.',
    response: { schema: 'PingResponse', description: 'Authenticated.', example: PING_RESPONSE_EXAMPLE },
  },
  quote: {
    method: 'post',
    path: '/intents/quote',
    tag: 'Intents',
    summary: 'Quote: create an intent session',
    description: [
      'Creates an intent session and returns a routed, normalized plan. A new quote is `ready`, `partial_only` or `unavailable`; call prepare only for `ready`, before `expiresAt` (about 60 s).',
      'Repeating the Idempotency-Key replays the stored session with its current quoteStatus (`expired` once expiresAt has passed, in each `routeEvaluations` group too: quote again with a new key). Routing is not re-run. Emits no webhook.',
      'Quote-level failures are not HTTP errors: they appear in `failedSources[].reasonCode`.',
    ].join('\n\n'),
    requestBody: { schema: 'QuoteRequest', required: true, examples: REQUEST_EXAMPLES.quote },
    response: {
      schema: 'QuoteResponse',
      description: 'The quote (a new one, or the replay of the stored one).',
      example: QUOTE_RESPONSE_EXAMPLE,
    },
  },
  prepare: {
    method: 'post',
    path: '/intents/{intentSessionId}/prepare',
    tag: 'Intents',
    summary: 'Prepare: create an attempt and its chain actions',
    description: [
      "Builds the exact executable transactions for a ready quote and creates an attempt. Call it only after the user confirmed the quote and before the quote's `expiresAt`.",
      'The wallet then signs `walletAuthorization` unchanged and executes every chain action exactly as returned, within the 30 s signable window (`expiresAt`). A replay (same Idempotency-Key) returns the stored attempt with its current status: execute only when it is `prepared`; re-running the chain actions of a replayed attempt spends the funds twice.',
      'An unknown or expired session is reported before a bad body.',
    ].join('\n\n'),
    pathParameter: { name: 'intentSessionId', description: 'The `intentSessionId` the quote returned.' },
    requestBody: { schema: 'PrepareRequest', required: false, examples: REQUEST_EXAMPLES.prepare },
    response: {
      schema: 'PrepareResponse',
      description: 'The attempt (new, or the replay of the stored one).',
      example: PREPARE_RESPONSE_EXAMPLE,
    },
  },
  submitted: {
    method: 'post',
    path: '/attempts/{attemptId}/submitted',
    tag: 'Attempts',
    summary: 'Report wallet execution evidence',
    description: [
      'Reports bundle ids and transaction hashes; additive and at-least-once. Report a `wallet_sendCalls` bundle id immediately; when receipt hashes appear later, call again with a new Idempotency-Key and the additional hashes. Re-sending identical evidence reuses the original body and key.',
      "Initial evidence must be accepted before the attempt's `evidenceDeadlineAt`; later additive evidence is not bounded by it. Include `walletAuthorization.signature`: without it the attempt never reaches `settled`.",
    ].join('\n\n'),
    pathParameter: { name: 'attemptId', description: 'The `attemptId` prepare returned.' },
    requestBody: { schema: 'SubmittedRequest', required: true, examples: REQUEST_EXAMPLES.submitted },
    response: {
      schema: 'AttemptSnapshot',
      description: 'The attempt snapshot after recording the evidence.',
      example: SUBMITTED_RESPONSE_EXAMPLE,
    },
  },
  status: {
    method: 'get',
    path: '/attempts/{attemptId}/status',
    tag: 'Attempts',
    summary: 'Get the attempt status',
    description:
      'The canonical attempt status snapshot; webhooks are wake-up signals and this stays the source of truth. `settled` means the target token is in the recipient wallet. No body, no Idempotency-Key.',
    pathParameter: { name: 'attemptId', description: 'The `attemptId` prepare returned.' },
    response: {
      schema: 'AttemptSnapshot',
      description: 'The attempt snapshot.',
      example: ATTEMPT_SNAPSHOT_EXAMPLE,
    },
  },
  searchAttempts: {
    method: 'post',
    path: '/attempts/search',
    tag: 'Lookups',
    summary: 'Search attempts by wallet, recipient, status and time',
    description: [
      "Lists your attempts of a wallet and/or a recipient, newest first (by creation, then attemptId), optionally narrowed by status and by a creation time range; paginated with an opaque cursor: pass `nextCursor` back with the same filters for the next page. Another partner's attempts are never listed.",
      'A read: the filters travel in the signed body (the signing string has no place for a query string), so it is a POST. It needs an Idempotency-Key like every POST, but nothing is recorded under it: the same key and body simply read again.',
      'Eventually consistent with the attempt streams, read-your-writes in practice: each search first catches up with every event recorded before it arrived. GET status stays the source of truth for one attempt.',
    ].join('\n\n'),
    requestBody: {
      schema: 'AttemptSearchRequest',
      required: true,
      examples: REQUEST_EXAMPLES.searchAttempts,
    },
    response: {
      schema: 'AttemptSearchResponse',
      description: 'One page of attempt summaries.',
      example: ATTEMPT_SEARCH_RESPONSE_EXAMPLE,
    },
  },
  transactionAttempt: {
    method: 'get',
    path: '/transactions/{chainId}/{txHash}/attempt',
    tag: 'Lookups',
    summary: 'Find the attempt a transaction belongs to',
    description:
      "The attempt (its canonical snapshot) that knows this transaction on this chain: a source transaction reported as evidence, a leg's fill on the target chain, or its refund; `matchedTransaction.role` says which. When several of your attempts know the hash (it was reported twice), the newest is returned and the others are listed in `otherAttemptIds`. Another partner's attempt answers `transaction_not_found`. No body, no Idempotency-Key.",
    pathParameters: [
      { name: 'chainId', description: 'The chain the transaction is on (decimal chain id).' },
      { name: 'txHash', description: 'The transaction hash: 0x followed by 64 hex characters, any case.' },
    ],
    response: {
      schema: 'TransactionAttemptResponse',
      description: 'The attempt snapshot and how it knows the transaction.',
      example: TRANSACTION_ATTEMPT_RESPONSE_EXAMPLE,
    },
  },
  webhookEvents: {
    method: 'get',
    path: '/webhooks/events',
    tag: 'Webhook control',
    summary: 'List your webhook events and their delivery tries',
    description: [
      `The lifecycle events of your attempts, oldest first (in the order they were queued for your callback URL), each with its status and its latest ${WEBHOOK_CONTROL_LIMITS.maxDeliveriesListedPerEvent} delivery tries: when each ended, your HTTP status, the latency and the outcome; \`deliveryCount\` counts every try and \`deliveriesOmitted\` those not listed. One page of up to 100 events; \`nextCursor\` continues (GET /webhooks/events/after/{cursor}). Every try stays listed at least ${WEBHOOK_CONTROL_LIMITS.retentionDays} days; after that an ended event's tries are compacted into its counts (\`historyCompacted\`: true) while the event stays listed, redeliverable and recoverable. No body, no Idempotency-Key.`,
    ].join('\n\n'),
    response: {
      schema: 'WebhookEventsResponse',
      description: 'The first page.',
      example: WEBHOOK_EVENTS_RESPONSE_EXAMPLE,
    },
  },
  webhookEventsAfter: {
    method: 'get',
    path: '/webhooks/events/after/{cursor}',
    tag: 'Webhook control',
    summary: 'Continue the list of webhook events after a cursor',
    description:
      'The page after the `nextCursor` of an earlier page. With `hasMore` false, keep the last `nextCursor` and call again later to see only newer events. A cursor this service did not return answers `invalid_webhook_cursor`. No body, no Idempotency-Key.',
    pathParameter: { name: 'cursor', description: 'A `nextCursor` an earlier page returned.' },
    response: {
      schema: 'WebhookEventsResponse',
      description: 'The next page.',
      example: WEBHOOK_EVENTS_RESPONSE_EXAMPLE,
    },
  },
  webhookRedeliver: {
    method: 'post',
    path: '/webhooks/redeliver/{eventId}',
    tag: 'Webhook control',
    summary: 'Redeliver one webhook event',
    description: [
      "A delivered or abandoned event is sent again: the same `eventId` and body, signed afresh, as a new pass of tries behind the attempt's events still pending (`redelivery_queued`). An event waiting for its next retry is tried now (`retry_now`). An event queued and not tried yet answers `webhook_delivery_pending`. Another partner's event, or an unknown one, answers `webhook_event_not_found`. An event whose history was compacted (older than the retention) is sent again like any other, with the same body.",
      `At most ${WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour} redeliveries (retries brought forward and recoveries included) of one event in any hour: one more answers \`webhook_redelivery_rate_limited\` (429) with \`Retry-After\`, the seconds until the oldest of them is an hour old. Your other events are not held back.`,
      'No body (or `{}`). Repeating the Idempotency-Key answers the first result again and sends nothing more.',
    ].join('\n\n'),
    pathParameter: {
      name: 'eventId',
      description: 'The `eventId` of a webhook (from its body, the list, or the live status stream).',
    },
    requestBody: { schema: 'WebhookRedeliverRequest', required: false, examples: { empty: {} } },
    response: {
      schema: 'WebhookRedeliverResponse',
      description: 'What the redelivery did.',
      example: WEBHOOK_REDELIVER_RESPONSE_EXAMPLE,
    },
  },
  webhookRecover: {
    method: 'post',
    path: '/webhooks/recover',
    tag: 'Webhook control',
    summary: 'Recover every webhook event of a time range',
    description: [
      "Every delivered or abandoned event of your attempts whose `occurredAt` is in [from, to) is sent again: same event ids and bodies, signed afresh, each attempt's events in their original order. Events still queued or retrying are on their way and left alone. Events whose history was compacted (older than the retention) are recovered like the others: their bodies are rebuilt from the attempt. The range spans at most 7 days.",
      `One call recovers at most ${WEBHOOK_CONTROL_LIMITS.maxRecoverAttemptsPerCall} attempts, those whose events in the range occurred first. When the range has more, the answer carries a \`continuation\`: send the same \`from\` and \`to\` with it (and a new Idempotency-Key) for the next page, until an answer has none. The pages take each attempt of the range once (with all its events in the range); events queued after the first page are delivered as usual and not part of the recovery. A continuation this service did not return for the same range answers \`invalid_recover_continuation\`.`,
      `An event already sent again ${WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour} times in the last hour is left out and listed in \`rateLimited\` with its \`retryAt\`.`,
      'Repeating the Idempotency-Key answers the first result again (the same page, the same continuation) and sends nothing more; `rateLimited` is in the first answer only.',
    ].join('\n\n'),
    requestBody: {
      schema: 'WebhookRecoverRequest',
      required: true,
      examples: {
        oneDay: WEBHOOK_RECOVER_REQUEST_EXAMPLE,
        nextPage: WEBHOOK_RECOVER_NEXT_PAGE_REQUEST_EXAMPLE,
      },
    },
    response: {
      schema: 'WebhookRecoverResponse',
      description: 'The events sent again.',
      example: WEBHOOK_RECOVER_RESPONSE_EXAMPLE,
    },
  },
  attemptEvents: {
    method: 'get',
    path: '/attempts/{attemptId}/events',
    tag: 'Attempts',
    summary: "Live status: the attempt's lifecycle events as Server-Sent Events",
    description: [
      "For partners who cannot receive webhooks: the same events, ids and bodies as the webhooks, as Server-Sent Events (`text/event-stream`). Each event's `id` is the webhook `eventId`, `event` its kind, `data` exactly the webhook body. The stream starts with the attempt's past events, then sends each new one as it happens, and ends after the terminal one (`settled` or `failed`; at once for an expired attempt). Comment lines are heartbeats.",
      'Reconnect with `Last-Event-ID` (the last `id` you received) to get only the events after it. At most 20 streams open at once per partner and service instance, and 1 000 per instance for all partners together (`live_stream_limit_reached`). Signed like every GET; no body, no Idempotency-Key.',
    ].join('\n\n'),
    pathParameter: { name: 'attemptId', description: 'The `attemptId` prepare returned.' },
    headerParameters: ['LastEventIdHeader'],
    response: {
      schema: 'WebhookEvent',
      description: 'The event stream; each `data` is a WebhookEvent.',
      example: null,
    },
    responseContent: LIVE_STATUS_STREAM_CONTENT,
  },
};

const ALL = OPERATION_NAMES;
const byMethod = (method: OperationSpec['method']): readonly OperationName[] =>
  OPERATION_NAMES.filter((name) => OPERATIONS[name].method === method);
const POST = byMethod('post');
const GET = byMethod('get');
/** The operations a feature answers over the bus (all but ping, which the gateway answers itself). */
const FEATURE = [
  'quote',
  'prepare',
  'submitted',
  'status',
  'searchAttempts',
  'transactionAttempt',
  'webhookEvents',
  'webhookEventsAfter',
  'webhookRedeliver',
  'webhookRecover',
] as const;

/**
 * Which operations can answer each error code. Typed as a record over every ErrorCode: a code added to the
 * registry does not compile until it is placed here, and so appears in the document. `route_not_found` and
 * `method_not_allowed` answer requests that match no operation; the document describes them in the Errors section.
 */
export const ERROR_CODE_OPERATIONS = {
  route_not_found: [],
  method_not_allowed: [],
  payload_too_large: ALL,
  unsupported_media_type: POST,
  content_encoding_unsupported: ALL,
  invalid_json: POST,
  invalid_request_body: POST,
  unknown_field: POST,
  request_body_not_allowed: GET,
  idempotency_key_not_allowed: GET,
  internal_error: ALL,
  not_implemented: FEATURE,
  dependency_unavailable: ALL,
  malformed_http_request: [],
  request_timeout: [],
  request_header_fields_too_large: [],
  connection_limit_reached: [],
  client_connection_limit_reached: [],
  client_body_limit_reached: POST,
  body_limit_reached: POST,
  external_auth_signature_invalid: ALL,
  external_auth_request_invalid: ALL,
  external_auth_timestamp_invalid: ALL,
  external_auth_timestamp_expired: ALL,
  external_auth_nonce_invalid: ALL,
  external_auth_nonce_conflict: ALL,
  external_auth_headers_required: ALL,
  external_auth_version_mismatch: ALL,
  external_auth_body_required: POST,
  partner_disabled: ALL,
  rate_limited: ALL,
  unauthenticated_rate_limited: ALL,
  idempotency_key_required: POST,
  idempotency_key_invalid: POST,
  idempotency_key_reused: POST,
  idempotency_request_in_progress: POST,
  invalid_wallet_address: ['quote', 'searchAttempts'],
  invalid_recipient: ['quote', 'searchAttempts'],
  invalid_sources: ['quote'],
  duplicate_source: ['quote'],
  invalid_chain_id: ['quote', 'submitted', 'transactionAttempt'],
  invalid_token_address: ['quote'],
  invalid_amount: ['quote'],
  invalid_decimals: ['quote'],
  invalid_symbol: ['quote'],
  invalid_usd_value: ['quote'],
  usd_value_required: ['quote'],
  target_required: ['quote'],
  target_conflict: ['quote'],
  invalid_target: ['quote'],
  target_token_mismatch: ['quote'],
  invalid_allocation_percent: ['quote'],
  invalid_slippage_bps: ['quote'],
  invalid_max_wait_ms: ['quote'],
  invalid_fee_bps: ['quote'],
  invalid_allow_partial: ['quote'],
  invalid_exclude_uneconomic_sources: ['quote'],
  invalid_uneconomic_threshold_bps: ['quote'],
  invalid_allowed_providers: ['quote'],
  invalid_callback_url: ['quote', 'prepare'],
  invalid_wallet_context: ['prepare'],
  invalid_chain_results: ['submitted'],
  invalid_bundle_id: ['submitted'],
  invalid_tx_hashes: ['submitted'],
  invalid_wallet_authorization: ['submitted'],
  invalid_submitted_at: ['submitted'],
  invalid_quote_results: ['submitted'],
  intent_session_not_found: ['prepare'],
  intent_session_expired: ['prepare'],
  intent_session_not_ready: ['prepare'],
  quote_changed: ['prepare'],
  intent_session_already_prepared: ['prepare'],
  attempt_not_found: ['submitted', 'status', 'attemptEvents'],
  search_filter_required: ['searchAttempts'],
  invalid_status_filter: ['searchAttempts'],
  invalid_time_range: ['searchAttempts'],
  invalid_limit: ['searchAttempts'],
  invalid_cursor: ['searchAttempts'],
  invalid_transaction_hash: ['transactionAttempt'],
  transaction_not_found: ['transactionAttempt'],
  unknown_chain: ['submitted'],
  evidence_deadline_passed: ['submitted'],
  contract_wallet_unsupported: ['submitted'],
  wallet_authorization_invalid: ['submitted'],
  wallet_authorization_expired: ['submitted'],
  evidence_limit_exceeded: ['submitted'],
  invalid_webhook_cursor: ['webhookEventsAfter'],
  webhook_event_not_found: ['webhookRedeliver'],
  webhook_delivery_pending: ['webhookRedeliver'],
  webhook_redelivery_rate_limited: ['webhookRedeliver'],
  invalid_recover_range: ['webhookRecover'],
  invalid_recover_continuation: ['webhookRecover'],
  invalid_last_event_id: ['attemptEvents'],
  live_stream_limit_reached: ['attemptEvents'],
} as const satisfies Record<ErrorCode, readonly OperationName[]>;

/** The error codes an operation can answer with, in registry order. */
export function errorCodesOf(operation: OperationName): ErrorCode[] {
  return (Object.entries(ERROR_CODE_OPERATIONS) as [ErrorCode, readonly OperationName[]][])
    .filter(([, operations]) => operations.includes(operation))
    .map(([code]) => code);
}

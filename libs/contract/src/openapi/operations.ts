import { type ErrorCode } from '../errors/error-codes';
import {
  ATTEMPT_SNAPSHOT_EXAMPLE,
  PING_RESPONSE_EXAMPLE,
  PREPARE_RESPONSE_EXAMPLE,
  QUOTE_RESPONSE_EXAMPLE,
  REQUEST_EXAMPLES,
  SUBMITTED_RESPONSE_EXAMPLE,
} from './examples';

/**
 * The v1 operations. Their names are the gateway's route names (libs/gateway `ROUTES`), which a test checks
 * together with each method and path, so a route cannot be added to the gateway without the document.
 */
export const OPERATION_NAMES = ['ping', 'quote', 'prepare', 'submitted', 'status'] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface OperationSpec {
  method: 'get' | 'post';
  /** Relative to API_PREFIX, OpenAPI notation (`{attemptId}`). */
  path: string;
  tag: string;
  summary: string;
  description: string;
  pathParameter?: { name: string; description: string };
  requestBody?: { schema: string; required: boolean; examples: Record<string, unknown> };
  response: { schema: string; description: string; example: unknown };
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
      'Repeating the Idempotency-Key replays the stored session with its current quoteStatus (`expired` once expiresAt has passed: quote again with a new key). Routing is not re-run. Emits no webhook.',
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
};

const ALL = OPERATION_NAMES;
const POST = ['quote', 'prepare', 'submitted'] as const;
const GET = ['ping', 'status'] as const;
/** The operations a feature answers over the bus (all but ping, which the gateway answers itself). */
const FEATURE = ['quote', 'prepare', 'submitted', 'status'] as const;

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
  external_auth_signature_invalid: ALL,
  external_auth_request_invalid: ALL,
  external_auth_timestamp_invalid: ALL,
  external_auth_timestamp_expired: ALL,
  external_auth_nonce_invalid: ALL,
  external_auth_nonce_conflict: ALL,
  external_auth_headers_required: ALL,
  external_auth_version_mismatch: ALL,
  partner_disabled: ALL,
  rate_limited: ALL,
  idempotency_key_required: POST,
  idempotency_key_invalid: POST,
  idempotency_key_reused: POST,
  idempotency_request_in_progress: POST,
  invalid_wallet_address: ['quote'],
  invalid_recipient: ['quote'],
  invalid_sources: ['quote'],
  duplicate_source: ['quote'],
  invalid_chain_id: ['quote', 'submitted'],
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
  attempt_not_found: ['submitted', 'status'],
  unknown_chain: ['submitted'],
  evidence_deadline_passed: ['submitted'],
  contract_wallet_unsupported: ['submitted'],
  wallet_authorization_invalid: ['submitted'],
  wallet_authorization_expired: ['submitted'],
  evidence_limit_exceeded: ['submitted'],
} as const satisfies Record<ErrorCode, readonly OperationName[]>;

/** The error codes an operation can answer with, in registry order. */
export function errorCodesOf(operation: OperationName): ErrorCode[] {
  return (Object.entries(ERROR_CODE_OPERATIONS) as [ErrorCode, readonly OperationName[]][])
    .filter(([, operations]) => operations.includes(operation))
    .map(([code]) => code);
}

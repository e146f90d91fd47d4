import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../enums/webhook-event-kind';
import { WEBHOOK_CONTROL_PARAMETERS, WEBHOOK_CONTROL_SCHEMAS } from './webhook-control-openapi';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes';
import { API_VERSION, type ErrorResponse } from '../errors/error-response';
import { API_PREFIX, HEADER } from '../headers';
import { QUOTE_LIMITS } from '../quote/quote-limits';
import { SUBMITTED_LIMITS } from '../submitted/submitted-limits';
import { JSON_LIMITS } from '../validation/json-bounds';
import { ENUM_SCHEMAS } from './enum-schemas';
import { webhookEventExample } from './examples';
import { headerName, type JsonSchema, ref } from './json-schema';
import {
  ERROR_CODE_OPERATIONS,
  errorCodesOf,
  OPERATION_NAMES,
  OPERATIONS,
  type OperationName,
  type OperationSpec,
} from './operations';
import { REQUEST_SCHEMAS } from './request-schemas';
import { RESPONSE_SCHEMAS } from './response-schemas';

/** An OpenAPI 3.1 document, as plain JSON data. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: JsonSchema[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, JsonSchema>>;
  webhooks: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

export const OPENAPI_VERSION = '3.1.0';

/** HTTP reason phrases of the statuses the registry uses (a test compares them with Node's). */
export const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The full path of an operation, as partners call and sign it. */
export function operationPath(operation: OperationName): string {
  return `${API_PREFIX}${OPERATIONS[operation].path}`;
}

/** Headers, by their wire names. */
const H = {
  partnerId: headerName(HEADER.partnerId),
  timestamp: headerName(HEADER.timestamp),
  authVersion: headerName(HEADER.authVersion),
  nonce: headerName(HEADER.nonce),
  signature: headerName(HEADER.signature),
  idempotencyKey: headerName(HEADER.idempotencyKey),
  apiVersion: headerName(HEADER.apiVersion),
  eventId: headerName(HEADER.eventId),
  retryAfter: headerName(HEADER.retryAfter),
  requestId: 'X-Request-Id',
  rateLimitPolicy: 'RateLimit-Policy',
  rateLimit: 'RateLimit',
} as const;

const NONCE_PATTERN = '^[A-Za-z0-9._~-]{16,128}$';

/**
 * The OpenAPI 3.1 document of the v1 partner API, built from the contract: operations, schemas, enumerations,
 * error codes, limits and header names all come from libs/contract. Deterministic: the same contract always gives
 * the same document (docs/openapi.json is this, formatted).
 */
export function buildOpenApiDocument(): OpenApiDocument {
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'External Intent API',
      version: API_VERSION,
      summary:
        'Consolidates EVM token balances from source chains into target tokens delivered to a recipient wallet.',
      description: infoDescription(),
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'Your deployment of the service. Every v1 path starts with `/api/external`.',
        variables: { baseUrl: { default: 'http://localhost:3000', description: 'Scheme, host and port.' } },
      },
    ],
    tags: [
      { name: 'Connectivity', description: 'Check that requests are signed correctly.' },
      { name: 'Intents', description: 'Quote a consolidation, then prepare its execution.' },
      {
        name: 'Attempts',
        description: 'Report wallet execution evidence and follow the attempt to its end.',
      },
      {
        name: 'Lookups',
        description:
          'Support and reconciliation: your attempts by wallet, recipient, status and time, and the attempt a transaction belongs to. Read from an index of the attempt streams caught up before every lookup; GET status stays the source of truth.',
      },
      {
        name: 'Webhook control',
        description:
          'Your webhook events with every delivery try, redelivery of one, recovery of a time range: the partner-facing counterpart of the operator tools.',
      },
      {
        name: 'Webhooks',
        description:
          'Signed lifecycle events the service POSTs to your configured callback URL. At least once, ordered per attempt; GET status stays the source of truth.',
      },
    ],
    security: [
      { PartnerId: [], Timestamp: [], AuthVersion: [], Nonce: [], Signature: [] },
      { PartnerId: [], Timestamp: [], Signature: [] },
    ],
    paths: Object.fromEntries(pathEntries()),
    webhooks: Object.fromEntries(WEBHOOK_EVENT_KINDS.map((kind) => [kind, { post: webhookOperation(kind) }])),
    components: {
      schemas: { ...REQUEST_SCHEMAS, ...RESPONSE_SCHEMAS, ...WEBHOOK_CONTROL_SCHEMAS, ...ENUM_SCHEMAS },
      parameters: { ...parameters(), ...WEBHOOK_CONTROL_PARAMETERS },
      responses: sharedResponses(),
      headers: responseHeaders(),
      securitySchemes: securitySchemes(),
    },
  };
}

function pathEntries(): [string, Record<string, JsonSchema>][] {
  const byPath = new Map<string, Record<string, JsonSchema>>();
  for (const name of OPERATION_NAMES) {
    const spec = OPERATIONS[name];
    const path = operationPath(name);
    byPath.set(path, { ...byPath.get(path), [spec.method]: operation(name, spec) });
  }
  return [...byPath];
}

function operation(name: OperationName, spec: OperationSpec): JsonSchema {
  const params = [
    ...(spec.pathParameters ?? (spec.pathParameter ? [spec.pathParameter] : [])).map((p) => ({
      $ref: `#/components/parameters/${p.name}`,
    })),
    ...authParameters(),
    ...(spec.method === 'post' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ...(spec.headerParameters ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
  ];
  return {
    operationId: name,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    parameters: params,
    ...(spec.requestBody ? { requestBody: requestBody(spec.requestBody) } : {}),
    responses: {
      '200': {
        description: spec.response.description,
        headers: commonHeaders(),
        content: spec.responseContent ?? {
          'application/json': { schema: ref(spec.response.schema), example: spec.response.example },
        },
      },
      ...errorResponses(name),
    },
  };
}

function requestBody(body: NonNullable<OperationSpec['requestBody']>): JsonSchema {
  return {
    required: body.required,
    ...(body.required
      ? {}
      : { description: 'Optional: an absent body is the same as `{}`. When sent, it is a JSON object.' }),
    content: {
      'application/json': {
        schema: ref(body.schema),
        examples: Object.fromEntries(
          Object.entries(body.examples).map(([key, value]) => [key, { summary: exampleSummary(key), value }]),
        ),
      },
    },
  };
}

function exampleSummary(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One response per HTTP status the operation can answer with, listing its codes. A status whose codes every
 * operation shares (401, 403, 413, 429, 500, 503) is a shared component response.
 */
function errorResponses(name: OperationName): Record<string, JsonSchema> {
  return Object.fromEntries(
    codesByStatus(errorCodesOf(name)).map(([status, codes]) => [
      String(status),
      codes.every(isSharedCode)
        ? { $ref: `#/components/responses/${sharedResponseName(status)}` }
        : errorResponse(status, codes, operationPath(name)),
    ]),
  );
}

function sharedResponses(): Record<string, JsonSchema> {
  const shared = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(isSharedCode);
  return Object.fromEntries(
    codesByStatus(shared).map(([status, codes]) => [
      sharedResponseName(status),
      errorResponse(status, codes, operationPath('ping')),
    ]),
  );
}

function isSharedCode(code: ErrorCode): boolean {
  return OPERATION_NAMES.every((name) => (ERROR_CODE_OPERATIONS[code] as readonly string[]).includes(name));
}

function sharedResponseName(status: number): string {
  return (REASON_PHRASES[status] ?? `Status${status}`).replace(/[^A-Za-z]/g, '');
}

function codesByStatus(codes: readonly ErrorCode[]): [number, ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].sort(([a], [b]) => a - b);
}

function errorResponse(status: number, codes: ErrorCode[], examplePath: string): JsonSchema {
  const retry = codes.some((code) => RETRY_AFTER_CODES.has(code));
  return {
    description: [
      `${REASON_PHRASES[status] ?? 'Error'}. \`code\` is one of:`,
      '',
      ...codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].description}`),
    ].join('\n'),
    headers: {
      ...commonHeaders(),
      ...(retry ? { [H.retryAfter]: { $ref: '#/components/headers/RetryAfter' } } : {}),
    },
    content: {
      'application/json': {
        schema: {
          allOf: [ref('ErrorResponse'), { type: 'object', properties: { code: { enum: codes } } }],
        },
        example: errorExample(examplePath, codes[0]),
      },
    },
  };
}

/** Codes answered with a Retry-After header. */
const RETRY_AFTER_CODES = new Set<ErrorCode>([
  'rate_limited',
  'unauthenticated_rate_limited',
  'live_stream_limit_reached',
  'webhook_redelivery_rate_limited',
  'idempotency_request_in_progress',
  'dependency_unavailable',
]);

function errorExample(template: string, code: ErrorCode): ErrorResponse {
  const { status, description } = ERROR_CODES[code];
  const path = template
    .replace('{intentSessionId}', 'is_8c1f0e2a4b6d4f7e9a0b1c2d3e4f5a6b')
    .replace('{attemptId}', 'at_3e9d2c1b0a4f4e8d9c7b6a5f4e3d2c1b');
  return {
    apiVersion: API_VERSION,
    error: REASON_PHRASES[status] ?? 'Error',
    code,
    message: description,
    path,
  };
}

function commonHeaders(): Record<string, JsonSchema> {
  return {
    [H.apiVersion]: { $ref: '#/components/headers/ApiVersion' },
    [H.requestId]: { $ref: '#/components/headers/RequestId' },
    [H.rateLimitPolicy]: { $ref: '#/components/headers/RateLimitPolicy' },
    [H.rateLimit]: { $ref: '#/components/headers/RateLimit' },
  };
}

function authParameters(): JsonSchema[] {
  return ['PartnerIdHeader', 'TimestampHeader', 'AuthVersionHeader', 'NonceHeader', 'SignatureHeader'].map(
    (name) => ({ $ref: `#/components/parameters/${name}` }),
  );
}

function parameters(): Record<string, JsonSchema> {
  const header = (name: string, required: boolean, description: string, schema: JsonSchema) => ({
    name,
    in: 'header',
    required,
    description,
    schema,
  });
  return {
    intentSessionId: {
      name: 'intentSessionId',
      in: 'path',
      required: true,
      description: OPERATIONS.prepare.pathParameter!.description,
      schema: { type: 'string', minLength: 1 },
    },
    attemptId: {
      name: 'attemptId',
      in: 'path',
      required: true,
      description: OPERATIONS.status.pathParameter!.description,
      schema: { type: 'string', minLength: 1 },
    },
    chainId: {
      name: 'chainId',
      in: 'path',
      required: true,
      description: OPERATIONS.transactionAttempt.pathParameters![0].description,
      schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
    },
    txHash: {
      name: 'txHash',
      in: 'path',
      required: true,
      description: OPERATIONS.transactionAttempt.pathParameters![1].description,
      schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
    },
    PartnerIdHeader: header(
      H.partnerId,
      true,
      'Your partner id (trimmed, 1 to 64 characters). Both schemes.',
      {
        type: 'string',
        minLength: 1,
        maxLength: 64,
      },
    ),
    TimestampHeader: header(
      H.timestamp,
      true,
      'Unix epoch milliseconds, decimal; at most 5 minutes from server time either way. Both schemes.',
      { type: 'string', pattern: '^[0-9]{1,16}$', examples: ['1772445600000'] },
    ),
    AuthVersionHeader: header(
      H.authVersion,
      false,
      "`2` on every request of a version-2 partner (required for them); version-1 partners omit it or send `1`. It must match the partner's server-side configuration and cannot negotiate or downgrade (`external_auth_version_mismatch`).",
      { type: 'string', enum: ['1', '2'] },
    ),
    NonceHeader: header(
      H.nonce,
      false,
      'Version 2 only (required there): unique per request, 16 to 128 characters of `A-Za-z0-9._~-`, never reused, including on retries.',
      { type: 'string', pattern: NONCE_PATTERN },
    ),
    SignatureHeader: header(
      H.signature,
      true,
      'Lowercase hex HMAC-SHA256 keyed with the partner secret: over the signing string (version 2) or over `<X-Timestamp>.<raw body>` (version 1). See the security schemes.',
      { type: 'string', pattern: '^[0-9a-f]{64}$' },
    ),
    IdempotencyKey: header(
      H.idempotencyKey,
      true,
      'Required on every POST, 1 to 255 characters (`idempotency_key_required`, `idempotency_key_invalid`). Persist the key and the exact body before sending; on a timeout or an ambiguous answer retry the same bytes with the same key (and a fresh nonce). Reusing a key with a different body or endpoint answers 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_request_in_progress`. Never sent on GET (`idempotency_key_not_allowed`).',
      { type: 'string', minLength: 1, maxLength: 255 },
    ),
    WebhookPartnerId: header(H.partnerId, true, 'Your partner id: check it is yours.', { type: 'string' }),
    WebhookTimestamp: header(
      H.timestamp,
      true,
      'Epoch milliseconds of this delivery try, decimal. Reject it when more than 5 minutes from your clock.',
      { type: 'string', pattern: '^[0-9]{1,16}$' },
    ),
    WebhookSignature: header(
      H.signature,
      true,
      'Lowercase hex HMAC-SHA256, keyed with your partner secret, over `<X-Timestamp>.<exact raw body>`, whatever your request-auth version. Verify over the raw bytes before parsing, in constant time.',
      { type: 'string', pattern: '^[0-9a-f]{64}$' },
    ),
    WebhookEventId: header(H.eventId, true, "The event id; always equal to the body's `eventId`.", {
      type: 'string',
    }),
    WebhookApiVersion: header(H.apiVersion, true, `Always \`${API_VERSION}\`.`, {
      type: 'string',
      const: API_VERSION,
    }),
  };
}

function responseHeaders(): Record<string, JsonSchema> {
  return {
    ApiVersion: {
      description: `The API major version, on every response: \`${API_VERSION}\`.`,
      required: true,
      schema: { type: 'string', const: API_VERSION },
    },
    RequestId: {
      description: "The request's id, on every response; quote it to support.",
      schema: { type: 'string' },
    },
    RetryAfter: {
      description: 'Seconds to wait before retrying.',
      required: true,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    // IETF draft-ietf-httpapi-ratelimit-headers-11 (May 2026), sections 3 and 4: Structured Field lists.
    RateLimitPolicy: {
      description:
        'The quota policy that applied to this request (IETF draft httpapi-ratelimit-headers): `"partner";q=<quota units>;w=60` once authenticated (a quote costs 1 + (sources + targets − 1) × providers units, every other request 1), `"unauthenticated";q=<requests>;w=60` for requests that failed authentication.',
      schema: { type: 'string', examples: ['"partner";q=600;w=60'] },
    },
    RateLimit: {
      description:
        'The quota left under that policy: `r` units remaining, `t` seconds until the quota is whole again. Per process: each instance of the service keeps its own.',
      schema: { type: 'string', examples: ['"partner";r=597;t=1'] },
    },
  };
}

function securitySchemes(): Record<string, JsonSchema> {
  const apiKey = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    PartnerId: apiKey(H.partnerId, 'Your partner id. Both schemes.'),
    Timestamp: apiKey(
      H.timestamp,
      'Unix epoch milliseconds, decimal; maximum clock skew 5 minutes. Both schemes.',
    ),
    AuthVersion: apiKey(
      H.authVersion,
      "Literal `2` on every request of the canonical scheme. The scheme is chosen by the partner's server-side configuration, never by the client.",
    ),
    Nonce: apiKey(
      H.nonce,
      'Canonical scheme: unique per request, `^[A-Za-z0-9._~-]{16,128}$`, never reused (also not on retries).',
    ),
    Signature: apiKey(H.signature, signatureDescription()),
  };
}

/** The two request-signing schemes; a test compares the signing string with libs/auth's. */
function signatureDescription(): string {
  return [
    'Lowercase hex HMAC-SHA256 keyed with the partner secret. A partner uses exactly one scheme, chosen by its server-side configuration.',
    '',
    `**Canonical scheme (version 2, every new partner).** Headers ${H.partnerId}, ${H.timestamp}, ${H.authVersion}: 2, ${H.nonce} and ${H.signature}. The signed string is these ten lines joined by LF, without a trailing newline:`,
    '',
    '```',
    SIGNING_STRING_TEMPLATE_V2,
    '```',
    '',
    `- \`path\` is the full pathname (beginning \`${API_PREFIX}/\`) with no query string, fragment, dot-segments or encoded separators; one trailing slash is stripped before verification.`,
    '- `body-sha256` is the lowercase hex SHA-256 of the exact bytes sent. Serialize a POST body once; hash, sign and send the same bytes. GET requests (and an empty POST body) hash zero bytes, and GET signs an empty idempotency key.',
    '- Rejected: duplicated protected headers, a Content-Encoding other than identity, a GET body, an Idempotency-Key on GET.',
    '- A nonce may be repeated only for the exact same request (same tuple); otherwise 409 `external_auth_nonce_conflict`.',
    '',
    `**Legacy scheme (version 1, frozen).** Headers ${H.partnerId}, ${H.timestamp} and ${H.signature}; no auth-version header (or \`1\`), no nonce. The signature is the HMAC-SHA256 of \`<X-Timestamp>.<raw request body>\`.`,
  ].join('\n');
}

/** Placeholders in angle brackets; the line order and prefixes are the scheme's. */
export const SIGNING_STRING_TEMPLATE_V2 = [
  'SERVICE-EXTERNAL-REQUEST',
  'auth-version:2',
  `api-version:${API_VERSION}`,
  'partner-id:<partner_id>',
  'timestamp:<epoch_ms>',
  'nonce:<nonce>',
  'method:<UPPERCASE_HTTP_METHOD>',
  'path:<normalized_absolute_pathname>',
  'idempotency-key:<key>',
  'body-sha256:<lowercase hex SHA-256 of the exact raw request bytes>',
].join('\n');

function webhookOperation(kind: WebhookEventKind): JsonSchema {
  return {
    operationId: `webhook_${kind}`,
    tags: ['Webhooks'],
    summary: `${kind} event`,
    description: [
      `Sent when the attempt ${WEBHOOK_WHEN[kind]}`,
      '',
      'Receiver rules: capture the raw bytes before parsing; verify the partner id, the timestamp (within 5 minutes) and the signature over the raw bytes; check that the event-id header equals `eventId`; deduplicate durably by `eventId` and commit before answering 2xx. Delivery is at least once and ordered per attempt; every retry is signed afresh with a new timestamp, with the same body and `eventId`.',
    ].join('\n'),
    security: [],
    parameters: [
      'WebhookPartnerId',
      'WebhookTimestamp',
      'WebhookSignature',
      'WebhookEventId',
      'WebhookApiVersion',
    ].map((name) => ({ $ref: `#/components/parameters/${name}` })),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            allOf: [ref('WebhookEvent'), { type: 'object', properties: { event: { const: kind } } }],
          },
          example: webhookEventExample(kind),
        },
      },
    },
    responses: {
      '2XX': {
        description: 'Delivered: only a 2xx counts, and only after you verified and recorded the event.',
      },
      '410': { description: 'Gone: the event is abandoned at once, without retries.' },
      default: {
        description:
          'Any other answer, a redirect, a connection error or a time-out (15 s) is a failure: the event is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±10 %), honouring Retry-After on 429 and 503, then abandoned.',
      },
    },
  };
}

const WEBHOOK_WHEN: Record<WebhookEventKind, string> = {
  wallet_submitted: 'had its first evidence (a bundle id or tx hash) accepted through `submitted`.',
  provider_pending: 'saw a source transaction confirm, or a provider saw the deposit: delivery is under way.',
  settled: 'delivered every leg to the recipient and has the wallet authorization signature. Terminal.',
  failed: 'ended every leg with at least one failed, or hit the tracking limit. Terminal.',
};

function infoDescription(): string {
  const errorRows = Object.entries(ERROR_CODES).map(
    ([code, spec]) => `| \`${code}\` | ${spec.status} | ${spec.description} |`,
  );
  const unrouted = (Object.keys(ERROR_CODE_OPERATIONS) as ErrorCode[]).filter(
    (code) => ERROR_CODE_OPERATIONS[code].length === 0,
  );
  const Q = QUOTE_LIMITS;
  const S = SUBMITTED_LIMITS;
  return [
    'A partner-facing HTTP API that quotes, prepares and tracks the consolidation of token balances from source chains into target tokens delivered to a recipient wallet, plus the signed webhooks it sends. Only the partner backend calls it: the partner secret never enters a browser or mobile bundle.',
    '',
    '## Flow',
    '',
    '1. **Quote** (`POST /api/external/intents/quote`) creates an intent session and returns a routed plan.',
    '2. The user confirms; **prepare** (`POST /api/external/intents/{intentSessionId}/prepare`) creates an attempt and returns the chain actions and the wallet authorization to sign.',
    '3. The wallet signs the authorization unchanged and executes each chain action exactly as returned.',
    '4. **Submitted** (`POST /api/external/attempts/{attemptId}/submitted`) reports the evidence (bundle ids, transaction hashes) and the signature.',
    '5. Poll **status** (`GET /api/external/attempts/{attemptId}/status`) or receive webhooks until `settled` (the target token is in the recipient wallet) or `failed`.',
    '',
    '## Conventions',
    '',
    `- Every response carries \`${H.apiVersion}: ${API_VERSION}\` and \`${H.requestId}\`; every JSON body carries \`"apiVersion": "${API_VERSION}"\`, and every error body the same id as \`requestId\`.`,
    `- Rate-limited responses carry \`${H.rateLimitPolicy}\` and \`${H.rateLimit}\` (IETF draft httpapi-ratelimit-headers); a 429 carries \`${H.retryAfter}\` too.`,
    '- Responses may gain informational fields within version 1: tolerate fields and enumeration values you do not know (the open sets are marked so).',
    '- Requests are strict: an unknown field is rejected (`unknown_field`). Amounts named raw are base-10 unsigned integer strings in token base units; `expiresAt` and the other times are ISO 8601 strings unless stated otherwise.',
    '- POST bodies are `application/json` (UTF-8), at most the configured body size (256 KiB by default).',
    `- Every POST needs an \`${H.idempotencyKey}\` header (see the parameter).`,
    '',
    '## Limits',
    '',
    '| Limit | Value |',
    '| --- | --- |',
    `| sources per quote | ${Q.minSources} to ${Q.maxSources} |`,
    `| targets per quote | 1 to ${Q.maxTargets} |`,
    `| slippageBps | ${Q.minSlippageBps} to ${Q.maxSlippageBps}, default ${Q.defaultSlippageBps} |`,
    `| maxWaitMs | ${Q.minMaxWaitMs} to ${Q.maxMaxWaitMs} |`,
    `| token decimals | 0 to ${Q.maxDecimals} |`,
    `| chainResults per report | ${S.minChainResults} to ${S.maxChainResults} |`,
    `| txHashes per chain result | at most ${S.maxTxHashes} |`,
    `| bundleId length | 1 to ${S.maxBundleIdLength} |`,
    `| request body | at most ${JSON_LIMITS.maxDepth} levels deep and ${JSON_LIMITS.maxValues} values |`,
    '| Idempotency-Key | 1 to 255 characters |',
    '| X-Nonce | 16 to 128 characters of `A-Za-z0-9._~-` |',
    '| clock skew | 5 minutes either way |',
    '| quote lifetime | about 60 s (`expiresAt`) |',
    '| signable window after prepare | 30 s (`expiresAt`) |',
    '| initial evidence | before `evidenceDeadlineAt`, typically about 15 minutes |',
    '',
    '## Errors',
    '',
    'Every error answers with an `ErrorResponse` body and a stable `code`; each code has one HTTP status. Each operation lists the codes it can answer with. ' +
      `${unrouted.map((code) => `\`${code}\``).join(', ')} answer requests that match no operation or that the HTTP parser refuses before any routing.`,
    '',
    '| Code | Status | When |',
    '| --- | --- | --- |',
    ...errorRows,
  ].join('\n');
}

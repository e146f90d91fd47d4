import { API_VERSION } from '../errors/error-response';
import {
  type RateLimitedWebhookEvent,
  type RecoveredWebhookEvent,
  type WebhookDeliveryRecord,
  type WebhookEventRecord,
  type WebhookEventsResponse,
  type WebhookRecoverRequest,
  type WebhookRecoverResponse,
  type WebhookRedeliverResponse,
} from '../webhook-control/webhook-control.types';
import { WEBHOOK_CONTROL_LIMITS } from '../webhook-control/webhook-control-limits';
import { encodeRecoverContinuation } from '../webhook-control/recover-continuation';
import { encodeWebhookCursor } from '../webhook-control/webhook-cursor';
import { enumSchema, type JsonSchema, objectSchema, ref } from './json-schema';

/**
 * The webhook control plane and the live status stream in the OpenAPI document: their schemas, examples and
 * path parameters, merged into the document beside the rest (operations.ts, openapi-document.ts).
 */

const str = (description?: string): JsonSchema =>
  description === undefined ? { type: 'string' } : { type: 'string', description };
const iso = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const arrayOf = (items: JsonSchema, description: string): JsonSchema => ({
  type: 'array',
  items,
  description,
});

const STATUS = enumSchema(
  ['queued', 'retrying', 'delivered', 'abandoned'],
  '`queued`: not tried yet; `retrying`: a try failed and the next is scheduled; `delivered`; `abandoned`: retries exhausted or your URL answered 410.',
);

const deliveryRecord = objectSchema<WebhookDeliveryRecord>(
  {
    at: { schema: iso('When the try ended. ISO 8601.') },
    statusCode: {
      schema: { type: 'integer' },
      nullable: true,
      description: 'Your HTTP status; null when none came (time-out, connection error).',
    },
    latencyMs: {
      schema: { type: 'integer', minimum: 0 },
      nullable: true,
      description: 'From sending to the end of your answer; null for tries recorded before latencies were.',
    },
    outcome: { schema: enumSchema(['delivered', 'failed', 'abandoned'], 'What the try did.') },
  },
  { description: 'One delivery try of a webhook.' },
);

const eventRecord = objectSchema<WebhookEventRecord>(
  {
    eventId: { schema: str('The webhook `eventId` (and X-Service-Event-Id).') },
    event: { schema: ref('WebhookEventKind') },
    attemptId: { schema: str() },
    occurredAt: { schema: iso('The lifecycle change, as in the webhook body. ISO 8601.') },
    status: { schema: STATUS },
    nextAttemptAt: { schema: iso('When the next try is due (retrying only). ISO 8601.'), nullable: true },
    deliveries: {
      schema: arrayOf(
        ref('WebhookDeliveryRecord'),
        `The latest tries of every pass, oldest first: at most ${WEBHOOK_CONTROL_LIMITS.maxDeliveriesListedPerEvent}. \`deliveryCount\` says how many there are.`,
      ),
    },
    deliveryCount: {
      schema: { type: 'integer', minimum: 0 },
      optional: true,
      description: 'Every try made of this event, all passes, listed or not. Additive in v1.',
    },
    deliveriesOmitted: {
      schema: { type: 'integer', minimum: 0 },
      optional: true,
      description:
        'Tries counted in `deliveryCount` and not in `deliveries` (older than the listed ones, or compacted).',
    },
    historyCompacted: {
      schema: { type: 'boolean' },
      optional: true,
      description:
        'true: the tries made before the history was compacted (after the retention, at least 30 days) are counted, no longer listed; `deliveries` lists only tries since. The event stays listed, redeliverable and recoverable.',
    },
    firstDeliveryAt: {
      schema: iso('When the first try ended; null when not tried yet; kept through a compaction. ISO 8601.'),
      optional: true,
      nullable: true,
    },
    lastDeliveryAt: {
      schema: iso('When the last try ended; null when not tried yet; kept through a compaction. ISO 8601.'),
      optional: true,
      nullable: true,
    },
  },
  { description: 'A lifecycle event of one of your attempts and the latest delivery tries of its webhook.' },
);

const eventsResponse = objectSchema<WebhookEventsResponse>(
  {
    apiVersion: { schema: { type: 'string', const: API_VERSION } },
    events: {
      schema: arrayOf(
        ref('WebhookEventRecord'),
        `Oldest first (in the order they were queued), at most ${WEBHOOK_CONTROL_LIMITS.pageSize}.`,
      ),
    },
    nextCursor: {
      schema: str(
        'Opaque. GET /webhooks/events/after/{nextCursor} continues after this page; keep it to poll for later events when `hasMore` is false.',
      ),
    },
    hasMore: { schema: { type: 'boolean', description: 'Whether more events follow right now.' } },
  },
  { description: '200 of GET /webhooks/events and GET /webhooks/events/after/{cursor}.' },
);

const redeliverResponse = objectSchema<WebhookRedeliverResponse>(
  {
    apiVersion: { schema: { type: 'string', const: API_VERSION } },
    eventId: { schema: str() },
    attemptId: { schema: str() },
    action: {
      schema: enumSchema(
        ['redelivery_queued', 'retry_now', 'none'],
        '`redelivery_queued`: a delivered or abandoned event goes out again (a new pass of tries); `retry_now`: an event waiting for its next retry is tried now; `none`: its retry was due already.',
      ),
    },
    status: { schema: STATUS },
  },
  { description: '200 of POST /webhooks/redeliver/{eventId}.' },
);

const recoverRequest = objectSchema<WebhookRecoverRequest>(
  {
    from: { schema: iso('Inclusive. ISO 8601 with a zone.') },
    to: {
      schema: iso(
        `Exclusive. ISO 8601 with a zone; later than \`from\`, at most ${WEBHOOK_CONTROL_LIMITS.maxRecoverSpanDays} days after it.`,
      ),
    },
    continuation: {
      schema: continuationSchema(
        'The `continuation` the previous page of this recovery returned, with the same `from` and `to`: recovers the next page. Omit it for the first page.',
      ),
      optional: true,
    },
  },
  {
    description:
      'Body of POST /webhooks/recover: the range of `occurredAt` to recover, and where to go on from after the first page.',
    closed: true,
  },
);

const recovered = objectSchema<RecoveredWebhookEvent>(
  {
    eventId: { schema: str() },
    event: { schema: ref('WebhookEventKind') },
    attemptId: { schema: str() },
    occurredAt: { schema: iso('ISO 8601.') },
  },
  { description: 'An event a recovery sends again.' },
);

const rateLimited = objectSchema<RateLimitedWebhookEvent>(
  {
    eventId: { schema: str() },
    event: { schema: ref('WebhookEventKind') },
    attemptId: { schema: str() },
    occurredAt: { schema: iso('ISO 8601.') },
    retryAt: { schema: iso('From when it may be sent again. ISO 8601.') },
  },
  {
    description: `An ended event a recovery did not send again: it was already sent again ${WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour} times in the last hour.`,
  },
);

const recoverResponse = objectSchema<WebhookRecoverResponse>(
  {
    apiVersion: { schema: { type: 'string', const: API_VERSION } },
    from: { schema: iso('ISO 8601.') },
    to: { schema: iso('ISO 8601.') },
    recovered: {
      schema: arrayOf(
        ref('RecoveredWebhookEvent'),
        "By attempt, each attempt's events in lifecycle order: the order they are sent in.",
      ),
    },
    rateLimited: {
      schema: arrayOf(
        ref('RateLimitedWebhookEvent'),
        `Ended events of this page's attempts in the range left out because each was already sent again ${WEBHOOK_CONTROL_LIMITS.maxRedeliveriesPerEventPerHour} times in the last hour (redelivered, retried now or recovered). Present only when there are some, in the answer of the request that left them out; a replay of its Idempotency-Key lists only what was sent. Additive.`,
      ),
      optional: true,
    },
    continuation: {
      schema: continuationSchema(
        `Present when the range has more attempts than this page (at most ${WEBHOOK_CONTROL_LIMITS.maxRecoverAttemptsPerCall} attempts per call): POST /webhooks/recover again with the same \`from\` and \`to\` and this \`continuation\` (and a new Idempotency-Key) for the next page. Absent once the range is done.`,
      ),
      optional: true,
    },
  },
  { description: '200 of POST /webhooks/recover.' },
);

/** A recovery's continuation: opaque, as the response gave it. */
function continuationSchema(description: string): JsonSchema {
  return {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]+$',
    maxLength: WEBHOOK_CONTROL_LIMITS.maxCursorLength,
    description,
  };
}

/** POST /webhooks/redeliver/{eventId} names everything in its path: no body, or an empty object. */
const redeliverRequest: JsonSchema = {
  type: 'object',
  description: 'Body of POST /webhooks/redeliver/{eventId}: empty (the event is in the path).',
  properties: {},
  additionalProperties: false,
};

export const WEBHOOK_CONTROL_SCHEMAS: Record<string, JsonSchema> = {
  WebhookEventsResponse: eventsResponse,
  WebhookEventRecord: eventRecord,
  WebhookDeliveryRecord: deliveryRecord,
  WebhookRedeliverRequest: redeliverRequest,
  WebhookRedeliverResponse: redeliverResponse,
  WebhookRecoverRequest: recoverRequest,
  WebhookRecoverResponse: recoverResponse,
  RecoveredWebhookEvent: recovered,
  RateLimitedWebhookEvent: rateLimited,
};

/** Path parameters of these operations (components/parameters). */
export const WEBHOOK_CONTROL_PARAMETERS: Record<string, JsonSchema> = {
  cursor: {
    name: 'cursor',
    in: 'path',
    required: true,
    description: 'A `nextCursor` an earlier page returned.',
    schema: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: WEBHOOK_CONTROL_LIMITS.maxCursorLength,
    },
  },
  eventId: {
    name: 'eventId',
    in: 'path',
    required: true,
    description: 'The `eventId` of a webhook (from its body, the list, or the live status stream).',
    schema: { type: 'string', minLength: 1 },
  },
  LastEventIdHeader: {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'Resume after this event: the `id` of the last event you received on an earlier stream of the same attempt.',
    schema: { type: 'string', minLength: 1 },
  },
};

// --- examples -----------------------------------------------------------------------------------------------

const EVENT_ID = '7d2c9a41-5b3e-5f60-a1c2-9e8d7f6a5b4c';
const ATTEMPT_ID = 'at_3e9d2c1b0a4f4e8d9c7b6a5f4e3d2c1b';

export const WEBHOOK_EVENTS_RESPONSE_EXAMPLE: WebhookEventsResponse = {
  apiVersion: API_VERSION,
  events: [
    {
      eventId: EVENT_ID,
      event: 'wallet_submitted',
      attemptId: ATTEMPT_ID,
      occurredAt: '2026-03-02T10:00:41.120Z',
      status: 'delivered',
      nextAttemptAt: null,
      deliveries: [
        { at: '2026-03-02T10:00:56.200Z', statusCode: null, latencyMs: 15000, outcome: 'failed' },
        { at: '2026-03-02T10:01:01.450Z', statusCode: 200, latencyMs: 38, outcome: 'delivered' },
      ],
      deliveryCount: 2,
      deliveriesOmitted: 0,
      historyCompacted: false,
      firstDeliveryAt: '2026-03-02T10:00:56.200Z',
      lastDeliveryAt: '2026-03-02T10:01:01.450Z',
    },
  ],
  nextCursor: encodeWebhookCursor('acme', EVENT_ID),
  hasMore: false,
};

export const WEBHOOK_REDELIVER_RESPONSE_EXAMPLE: WebhookRedeliverResponse = {
  apiVersion: API_VERSION,
  eventId: EVENT_ID,
  attemptId: ATTEMPT_ID,
  action: 'redelivery_queued',
  status: 'queued',
};

export const WEBHOOK_RECOVER_REQUEST_EXAMPLE: WebhookRecoverRequest = {
  from: '2026-03-02T00:00:00Z',
  to: '2026-03-03T00:00:00Z',
};

/** What the first page of a larger range answers: go on with this, same from and to. */
const RECOVER_CONTINUATION = encodeRecoverContinuation(
  Date.parse(WEBHOOK_RECOVER_REQUEST_EXAMPLE.from),
  Date.parse(WEBHOOK_RECOVER_REQUEST_EXAMPLE.to),
  { after: { occurredAt: Date.parse('2026-03-02T10:00:41.120Z'), position: '1042' }, asOf: '1187' },
);

export const WEBHOOK_RECOVER_NEXT_PAGE_REQUEST_EXAMPLE: WebhookRecoverRequest = {
  ...WEBHOOK_RECOVER_REQUEST_EXAMPLE,
  continuation: RECOVER_CONTINUATION,
};

export const WEBHOOK_RECOVER_RESPONSE_EXAMPLE: WebhookRecoverResponse = {
  apiVersion: API_VERSION,
  from: '2026-03-02T00:00:00.000Z',
  to: '2026-03-03T00:00:00.000Z',
  recovered: [
    {
      eventId: EVENT_ID,
      event: 'wallet_submitted',
      attemptId: ATTEMPT_ID,
      occurredAt: '2026-03-02T10:00:41.120Z',
    },
  ],
  continuation: RECOVER_CONTINUATION,
};

/** What one message of the live status stream looks like on the wire. */
export const LIVE_STATUS_STREAM_EXAMPLE = [
  ': live status of the attempt',
  '',
  `id: ${EVENT_ID}`,
  'event: wallet_submitted',
  `data: {"attemptId":"${ATTEMPT_ID}","status":"wallet_submitted","…":"…","apiVersion":"1","eventId":"${EVENT_ID}","event":"wallet_submitted","occurredAt":"2026-03-02T10:00:41.120Z"}`,
  '',
  '',
].join('\n');

/** The document's 200 of the live status stream: `text/event-stream`, each `data` a webhook body. */
export const LIVE_STATUS_STREAM_CONTENT: JsonSchema = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        'Server-Sent Events. Each event: `id` = the webhook eventId, `event` = the webhook event kind, `data` = exactly the webhook body (one line of JSON, schema WebhookEvent). Comment lines (`:`) are heartbeats. The stream ends after the terminal event (`settled` or `failed`), or at once when the attempt expired.',
    },
    example: LIVE_STATUS_STREAM_EXAMPLE,
  },
};

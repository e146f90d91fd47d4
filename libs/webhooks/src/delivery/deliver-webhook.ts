import { parseRetryAfter } from '@svc/contract';
import { CallbackAddressPolicy, defaultAllowedCallbackAddresses } from './callback-address-policy';
import { postBounded } from './post-bounded';
import { webhookRequestHeaders } from './webhook-request-headers';

export type DeliveryResult =
  | { kind: 'success'; status: number; durationMs: number }
  | { kind: 'gone'; status: 410; durationMs: number }
  | {
      kind: 'failure';
      status: number | null;
      /**
       * `http_<status>`, `timeout`, `invalid_url`, `connection_closed`, `address_not_allowed` (the callback's address
       * is not public and not allowed: nothing was sent) or a Node error code (`ECONNREFUSED`).
       */
      error: string;
      /** The receiver's Retry-After on a 429 or 503, in milliseconds from the end of this try. */
      retryAfterMs: number | null;
      durationMs: number;
    };

export interface DeliverWebhookInput {
  url: string;
  partnerId: string;
  secret: string;
  eventId: string;
  /** The exact raw JSON sent and signed; never re-serialised. */
  body: string;
  now: () => number;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Where webhooks may go; default: public addresses and loopback (WEBHOOK_ALLOWED_ADDRESSES' default off production). */
  addresses?: CallbackAddressPolicy;
}

const LOOPBACK_ALLOWED = new CallbackAddressPolicy(defaultAllowedCallbackAddresses(false));

export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 8192;

/**
 * One delivery try of a signed webhook (spec: Events). Only a 2xx counts as delivered; a 410 tells the caller to
 * abandon the event; everything else, redirects included, is a failure the retry policy decides on.
 */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<DeliveryResult> {
  const startedAt = input.now();
  const elapsed = (): number => Math.max(0, input.now() - startedAt);
  const url = parseUrl(input.url);
  if (url === undefined) {
    return { kind: 'failure', status: null, error: 'invalid_url', retryAfterMs: null, durationMs: 0 };
  }

  const body = Buffer.from(input.body, 'utf8');
  const headers = webhookRequestHeaders({ ...input, timestamp: startedAt, body });
  const outcome = await postBounded(url, headers, body, {
    timeoutMs: input.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
    maxResponseBytes: input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    addresses: input.addresses ?? LOOPBACK_ALLOWED,
  });

  const durationMs = elapsed();
  if (outcome.kind === 'error') {
    return { kind: 'failure', status: outcome.status, error: outcome.error, retryAfterMs: null, durationMs };
  }
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: 'success', status, durationMs };
  if (status === 410) return { kind: 'gone', status, durationMs };
  const retryAfterMs =
    status === 429 || status === 503 ? parseRetryAfter(outcome.headers['retry-after'], input.now()) : null;
  return { kind: 'failure', status, error: `http_${status}`, retryAfterMs, durationMs };
}

function parseUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

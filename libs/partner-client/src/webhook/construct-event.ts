import { type WebhookEvent } from '../generated/api-types';
import { verifyWebhook, type WebhookRejection } from './verify-webhook';
import { type HeaderMap } from './webhook-headers';

/** A webhook delivery that must be refused (answer 401 and process nothing). `reason` says why. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError' as const;
  constructor(readonly reason: WebhookRejection) {
    super(`webhook refused: ${reason}`);
  }
}

export interface ConstructEventOptions {
  /** Your partner id: a delivery addressed to another partner is refused (`partner_mismatch`). */
  partnerId: string;
  /** Allowed clock difference either way. Default five minutes. */
  toleranceMs?: number;
  /** Epoch milliseconds. Default Date.now(). */
  now?: number;
}

/**
 * Verifies a webhook delivery over its raw body bytes (before anything parses them) and returns the typed event:
 * the partner id, the timestamp (within `toleranceMs`), the signature (any of `secretOrSecrets`, for a rotation)
 * and the event-id header against the body's eventId. Throws WebhookSignatureError with the reason otherwise.
 * Deduplicate on `event.eventId` and persist before answering 2xx.
 */
export function constructEvent(
  rawBody: Buffer | Uint8Array | string,
  headers: HeaderMap,
  secretOrSecrets: string | readonly string[],
  options: ConstructEventOptions,
): WebhookEvent {
  const body = typeof rawBody === 'string' || Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody);
  const verified = verifyWebhook(body, headers, {
    partnerId: options.partnerId,
    secret: secretOrSecrets,
    nowMs: options.now ?? Date.now(),
    ...(options.toleranceMs === undefined ? {} : { toleranceMs: options.toleranceMs }),
  });
  if (!verified.ok) throw new WebhookSignatureError(verified.reason);
  return verified.event as unknown as WebhookEvent;
}

import { signWebhook, timingSafeEqualHex } from '../protocol/signing';
import { type HeaderMap, readWebhookHeaders } from './webhook-headers';
import { type WebhookEvent } from './webhook-event';

export type WebhookRejection =
  | 'header_missing'
  | 'header_duplicated'
  | 'partner_mismatch'
  | 'timestamp_invalid'
  | 'timestamp_expired'
  | 'signature_invalid'
  | 'body_invalid'
  | 'event_id_mismatch';

export type WebhookVerification = { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookRejection };

export interface WebhookVerifyOptions {
  partnerId: string;
  /**
   * Your secret; during a rotation, the new one and the one being retired (either signature is accepted): the service
   * signs webhooks with its current secret from the moment the operator switches it.
   */
  secret: string | readonly string[];
  nowMs: number;
  /** Spec: five minutes either way. */
  toleranceMs?: number;
}

/**
 * Receiver rules 1 to 3 of the spec: partner id, timestamp and signature are checked over the raw bytes before
 * anything is parsed, then the event-id header must equal the payload's eventId. Deduplicating by eventId and
 * persisting before the 2xx (rules 4 to 6) are the receiver's part.
 */
export function verifyWebhook(
  rawBody: Buffer | string,
  headers: HeaderMap,
  options: WebhookVerifyOptions,
): WebhookVerification {
  const read = readWebhookHeaders(headers);
  if (!read.ok) return read;
  const { partnerId, timestamp, signature, eventId } = read.headers;
  if (partnerId !== options.partnerId) return { ok: false, reason: 'partner_mismatch' };
  if (!/^[0-9]{1,16}$/.test(timestamp)) return { ok: false, reason: 'timestamp_invalid' };
  if (Math.abs(options.nowMs - Number(timestamp)) > (options.toleranceMs ?? 300_000)) {
    return { ok: false, reason: 'timestamp_expired' };
  }
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const signedBy = (secret: string) => timingSafeEqualHex(signWebhook(secret, timestamp, rawBody), signature);
  // Every secret is tried (no early exit), so the time taken does not tell which one matched.
  if (!/^[0-9a-f]{64}$/.test(signature) || !secrets.map(signedBy).includes(true)) {
    return { ok: false, reason: 'signature_invalid' };
  }

  const event = parseEvent(rawBody);
  if (event === undefined) return { ok: false, reason: 'body_invalid' };
  if (event.eventId !== eventId) return { ok: false, reason: 'event_id_mismatch' };
  return { ok: true, event };
}

function parseEvent(rawBody: Buffer | string): WebhookEvent | undefined {
  try {
    const parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const event = parsed as Partial<WebhookEvent>;
    return typeof event.eventId === 'string' ? (event as WebhookEvent) : undefined;
  } catch {
    return undefined;
  }
}

import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { timestampDotBody } from './timestamp-dot-body';

/**
 * X-Signature of a webhook delivery. Webhooks stay on the frozen v1 form `<X-Timestamp>.<raw JSON body>` whatever
 * the partner's request-auth version (spec: Versioning rule 3), so receivers need only one verifier.
 */
export function signWebhook(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return hmacSha256Hex(secret, timestampDotBody(timestamp, rawBody));
}

import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { timestampDotBody } from './timestamp-dot-body';

/** X-Signature for a legacy (v1, frozen) request: HMAC-SHA256 of `<X-Timestamp>.<raw body>`. */
export function signRequestV1(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return hmacSha256Hex(secret, timestampDotBody(timestamp, rawBody));
}

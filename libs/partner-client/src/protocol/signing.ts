import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The request and webhook signatures of the External Intent API, self-contained so the published package needs
 * nothing but Node. protocol.drift.spec.ts checks every function here against the service's verifier side
 * (libs/auth) on generated inputs, and docs/partners/signing.md has a worked example a test recomputes.
 */

/** Lowercase hex SHA-256. A string is hashed as its UTF-8 bytes, which is what goes on the wire. */
export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function hmacSha256Hex(secret: string, data: Buffer | string): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** `<timestamp>.<raw body>` as bytes: the signed message of a v1 request and of every webhook. */
function timestampDotBody(timestamp: string | number, rawBody: Buffer | string): Buffer {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return Buffer.concat([Buffer.from(`${String(timestamp)}.`, 'utf8'), body]);
}

/** The inputs of the v2 signing string. */
export interface SigningPartsV2 {
  partnerId: string;
  /** Decimal epoch milliseconds, exactly as sent in X-Timestamp. */
  timestamp: string | number;
  nonce: string;
  /** Upper-cased here, so `get` and `GET` sign alike. */
  method: string;
  /** The path as sent, e.g. `/api/external/ping` (no query string). */
  path: string;
  /** The Idempotency-Key header value; `''` for GET. */
  idempotencyKey: string;
  /** Lowercase hex SHA-256 of the exact raw request bytes (of zero bytes for a GET). */
  bodySha256: string;
}

/** The ten LF-joined lines signed by auth version 2, in order, with no trailing newline. */
export function buildSigningStringV2(parts: SigningPartsV2): string {
  return [
    'SERVICE-EXTERNAL-REQUEST',
    'auth-version:2',
    'api-version:1',
    `partner-id:${parts.partnerId}`,
    `timestamp:${String(parts.timestamp)}`,
    `nonce:${parts.nonce}`,
    `method:${parts.method.toUpperCase()}`,
    `path:${parts.path}`,
    `idempotency-key:${parts.idempotencyKey}`,
    `body-sha256:${parts.bodySha256}`,
  ].join('\n');
}

/** X-Signature of a v2 request: HMAC-SHA256 (lowercase hex) of the signing string keyed with the partner secret. */
export function signRequestV2(secret: string, parts: SigningPartsV2): string {
  return hmacSha256Hex(secret, buildSigningStringV2(parts));
}

/** X-Signature of a legacy v1 request: HMAC-SHA256 of `<X-Timestamp>.<raw body>`. */
export function signRequestV1(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return hmacSha256Hex(secret, timestampDotBody(timestamp, rawBody));
}

/** X-Signature of a webhook delivery: always the v1 form `<X-Timestamp>.<raw JSON body>`. */
export function signWebhook(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return hmacSha256Hex(secret, timestampDotBody(timestamp, rawBody));
}

const HEX_BYTES = /^(?:[0-9a-fA-F]{2})+$/;

/** Compares two hex digests in constant time; false (never a throw) on a length mismatch or non-hex input. */
export function timingSafeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (a.length !== b.length || !HEX_BYTES.test(a) || !HEX_BYTES.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** The inputs of the v2 signing string (spec: "Canonical scheme (version 2)"). */
export interface SigningPartsV2 {
  partnerId: string;
  /** Decimal epoch milliseconds, exactly as sent in X-Timestamp. */
  timestamp: string | number;
  nonce: string;
  /** Upper-cased here, so `get` and `GET` sign alike. */
  method: string;
  /** The canonical path (see canonicalizeRequestPath), e.g. `/api/external/ping`. */
  path: string;
  /** The Idempotency-Key header value; `''` for GET. */
  idempotencyKey: string;
  /** Lowercase hex SHA-256 of the exact raw request bytes. */
  bodySha256: string;
}

/** The ten LF-joined lines of the spec, in order, with no trailing newline. */
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

/**
 * Header names on the wire. The spec names the vendor-prefixed headers in a neutral form
 * (`X-Service-Auth-Version`, `X-Service-Api-Version`, `X-Service-Event-Id`); that neutral form is the
 * wire name of this service. Node lower-cases incoming header names, so the lookups use lower case.
 */
export const HEADER = {
  partnerId: 'x-partner-id',
  timestamp: 'x-timestamp',
  authVersion: 'x-service-auth-version',
  nonce: 'x-nonce',
  signature: 'x-signature',
  idempotencyKey: 'idempotency-key',
  contentType: 'content-type',
  contentEncoding: 'content-encoding',
  apiVersion: 'x-service-api-version',
  eventId: 'x-service-event-id',
  retryAfter: 'retry-after',
} as const;

/** Headers whose duplication is rejected: they feed the signature or the idempotency record. */
export const PROTECTED_HEADERS: readonly string[] = [
  HEADER.partnerId,
  HEADER.timestamp,
  HEADER.authVersion,
  HEADER.nonce,
  HEADER.signature,
  HEADER.idempotencyKey,
  HEADER.contentType,
  HEADER.contentEncoding,
];

/** Every API path starts with this prefix. */
export const API_PREFIX = '/api/external';

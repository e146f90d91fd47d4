/**
 * Names on the wire, as the External Intent API defines them. The package is self-contained (it is published
 * without the service's libraries), so they are declared here; protocol.drift.spec.ts checks them against the
 * service's own definitions (libs/contract).
 */
export const HEADER = {
  partnerId: 'x-partner-id',
  timestamp: 'x-timestamp',
  authVersion: 'x-service-auth-version',
  nonce: 'x-nonce',
  signature: 'x-signature',
  idempotencyKey: 'idempotency-key',
  contentType: 'content-type',
  apiVersion: 'x-service-api-version',
  eventId: 'x-service-event-id',
  retryAfter: 'retry-after',
  lastEventId: 'last-event-id',
} as const;

/** Every API path starts with this prefix (after the deployment's own base path). */
export const API_PREFIX = '/api/external';

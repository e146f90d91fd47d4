import { type IdempotencyRecord, type IdempotencyStore } from '@svc/partner-client';

/**
 * The CLI's stored operations, kept apart per service and partner (issue 25 item 5): one `.partner-client` file
 * serves every SERVICE_URL and PARTNER_ID a developer points the CLI at, and a key stored for one service must never
 * be sent to another (a quote re-run against a new local service would replay the old service's key and get its
 * `idempotency_key_reused`, or worse, be taken for the earlier request). The scope is the service's origin and path
 * (without a trailing slash) and the partner id.
 */
export function scopedIdempotencyStore(
  store: IdempotencyStore,
  scope: { serviceUrl: string; partnerId: string },
): IdempotencyStore {
  const url = new URL(scope.serviceUrl);
  const prefix = `${url.origin}${url.pathname.replace(/\/+$/, '')} ${scope.partnerId} `;
  return {
    get: (operationId: string): Promise<IdempotencyRecord | undefined> => store.get(prefix + operationId),
    put: (operationId: string, record: IdempotencyRecord) => store.put(prefix + operationId, record),
    delete: (operationId: string) => store.delete(prefix + operationId),
  };
}

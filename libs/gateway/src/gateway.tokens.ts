/** Injection tokens the composition root binds (ports and configuration). */
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');

export interface GatewayOptions {
  maxBodyBytes: number;
  idempotencyRetentionHours: number;
  idempotencyLeaseSeconds: number;
  busRequestTimeoutMs: number;
}

/** The gateway's nonce and Idempotency-Key records (RequestRecords): tables or event-store streams. */
export const REQUEST_RECORDS = Symbol('REQUEST_RECORDS');

/** Injection tokens the composition root binds (ports and configuration). */
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');

export interface GatewayOptions {
  maxBodyBytes: number;
  idempotencyRetentionHours: number;
  idempotencyLeaseSeconds: number;
  busRequestTimeoutMs: number;
}

/** Injection tokens the composition root binds (ports and configuration). */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const PARTNER_DIRECTORY = Symbol('PARTNER_DIRECTORY');
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');

export interface GatewayOptions {
  maxBodyBytes: number;
  idempotencyRetentionHours: number;
  idempotencyLeaseSeconds: number;
  busRequestTimeoutMs: number;
}

/** Bounds on the wallet context strings we store with the attempt. */
export const PREPARE_LIMITS = {
  maxConnectorFieldLength: 256,
} as const;

export * from './allocation';
export * from './quoting';
export * from './intent-session';
export * from './attempt';
export * from './webhook-delivery';
export * from './tracking';
export * from './idempotency';
export * from './nonce';

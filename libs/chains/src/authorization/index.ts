export * from './execution-commitment';
export * from './execution-commitment.error';
export * from './build-wallet-authorization';
export * from './wallet-authorization.error';
export * from './random-nonce';
export * from './recover-authorization-signer';
export * from './verify-authorization';

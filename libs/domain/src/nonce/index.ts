export * from './nonce.events';
export * from './nonce.commands';
export { initialNonceState, nonceAvailable, type NonceState } from './nonce.state';
export * from './nonce-refused.error';
export { decideNonce, nonceDecider } from './nonce.decider';
export { nonceBucketEvent, nonceBucketReader, nonceBucketStreamId } from './nonce-bucket';

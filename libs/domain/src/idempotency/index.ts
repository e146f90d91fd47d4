export * from './idempotency.events';
export * from './idempotency.commands';
export { evolveIdempotency, initialIdempotencyState, type IdempotencyState } from './idempotency.state';
export { beginOutcome, type IdempotencyOutcome } from './begin-outcome';
export { decideIdempotency, idempotencyDecider, idempotencyStreamId } from './idempotency.decider';

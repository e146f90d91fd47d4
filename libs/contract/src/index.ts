export * from './errors/error-codes';
export * from './errors/error-response';
export * from './headers';
export { parseRetryAfter } from './http/parse-retry-after';
export type { Decider, UncheckedEvent } from './decider/decider';
export {
  type EventDataCheck,
  type EventShapes,
  isArrayOf,
  isPlainData,
  storedEventShapes,
} from './decider/stored-event-shapes';

export * from './enums/amount-basis';
export * from './enums/attempt-status';
export * from './enums/coverage-mode';
export * from './enums/failed-source-reason-code';
export * from './enums/provider-name';
export * from './enums/quote-status';
export * from './enums/submit-method';
export * from './enums/webhook-event-kind';

export type { PartnerRequestPolicy, ValidationResult } from './validation/validation-result';

export * from './quote/quote-limits';
export type * from './quote/quote-request.types';
export { validateQuoteRequest } from './quote/validate-quote-request';
export type * from './quote/quote-response.types';
export type * from './quote/allocation-plan.types';
export type * from './quote/source-gas.types';
export type * from './quote/failed-source.types';
export type * from './quote/route-evaluation.types';
export type * from './quote/selected-plan.types';
export type * from './quote/target.types';

export * from './prepare/prepare-limits';
export type * from './prepare/prepare-request.types';
export { validatePrepareRequest } from './prepare/validate-prepare-request';
export type * from './prepare/prepare-response.types';
export { attemptIdFor } from './prepare/attempt-id';
export type * from './prepare/chain-action.types';
export type * from './prepare/source-token-preview.types';
export * from './prepare/wallet-authorization.types';

export * from './submitted/submitted-limits';
export type * from './submitted/submitted-request.types';
export { validateSubmittedRequest } from './submitted/validate-submitted-request';

export type * from './attempt/attempt-snapshot.types';
export type * from './attempt/per-chain-status.types';
export type * from './attempt/settled-output.types';
export type * from './attempt/leg-fees.types';
export * from './attempt/chain-status';
export * from './attempt/leg-status';
export type * from './webhook/webhook-event-payload.types';
export type * from './ping/ping-response.types';

export * from './lookups/lookup-limits';
export type * from './lookups/lookup.types';
export { TRANSACTION_ROLES } from './lookups/lookup.types';
export { encodeSearchCursor } from './lookups/search-cursor';
export { validateAttemptSearchRequest } from './lookups/validate-attempt-search-request';
export { parseTransactionResourceId, transactionResourceId } from './lookups/transaction-ref';

export type * from './webhook-control/webhook-control.types';
export { WEBHOOK_CONTROL_LIMITS } from './webhook-control/webhook-control-limits';
export { decodeWebhookCursor, encodeWebhookCursor } from './webhook-control/webhook-cursor';
export {
  decodeRecoverContinuation,
  encodeRecoverContinuation,
  type RecoverContinuation,
} from './webhook-control/recover-continuation';
export {
  validateWebhookRecoverRequest,
  type WebhookRecoverRange,
} from './webhook-control/validate-webhook-recover-request';

export * from './openapi';

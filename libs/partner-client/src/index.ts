export { PartnerClient } from './partner-client';
export type { PartnerClientOptions, PostOptions } from './partner-client-options';
export type { PartnerResponse } from './partner-response';
export { PartnerClientError } from './partner-client.error';
export { IdempotencyConflictError } from './idempotency-conflict.error';
export { InvalidResourceIdError } from './invalid-resource-id.error';
export type { IdempotencyRecord, IdempotencyStore } from './idempotency/idempotency-store';
export { MemoryIdempotencyStore } from './idempotency/memory-idempotency-store';
export { FileIdempotencyStore } from './idempotency/file-idempotency-store';
export {
  verifyWebhook,
  type WebhookRejection,
  type WebhookVerification,
  type WebhookVerifyOptions,
} from './webhook/verify-webhook';
export type { WebhookEvent } from './webhook/webhook-event';
export {
  createWebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookRequestHandler,
} from './webhook/webhook-receiver';
export type { ProcessedEventStore } from './webhook/processed-event-store';
export { MemoryProcessedEventStore } from './webhook/memory-processed-event-store';
export { FileProcessedEventStore } from './webhook/file-processed-event-store';
export { AttemptEventsError, type AttemptStreamEvent, type FollowOptions } from './sse/follow-attempt-events';
export {
  buildSigningStringV2,
  sha256Hex,
  signRequestV1,
  signRequestV2,
  signWebhook,
  type SigningPartsV2,
} from './protocol/signing';
export { API_PREFIX, HEADER } from './protocol/wire';
export { IntentClient, operations, type AttemptEvent } from './intent-client';
export {
  AuthenticationError,
  ConflictError,
  errorFamily,
  IntentApiError,
  isIntentApiError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  toIntentApiError,
  ValidationError,
  type ErrorAnswer,
  type ErrorFamily,
} from './errors/intent-api-error';
export { constructEvent, WebhookSignatureError, type ConstructEventOptions } from './webhook/construct-event';
export { errorCodes } from './generated/api-types';
export type * from './generated/api-types';
/** The contract's WebhookEvent (the name `WebhookEvent` stays the loose type verifyWebhook returns). */
export type { WebhookEvent as ApiWebhookEvent } from './generated/api-types';

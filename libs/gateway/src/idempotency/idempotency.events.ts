/** The idempotency stream's events and rules live in the domain (`@svc/domain`); the pipeline names this one here. */
export type { RequestFingerprint } from '@svc/domain';

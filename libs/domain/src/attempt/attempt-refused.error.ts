import { type ErrorCode } from '@svc/contract';

/** The partner-facing refusals of the attempt decider; each code is in the error registry. */
export type AttemptRefusalCode = Extract<
  ErrorCode,
  'attempt_not_found' | 'evidence_deadline_passed' | 'unknown_chain' | 'evidence_limit_exceeded'
>;

/** A command the attempt refuses in its current state; the gateway maps `code` onto the error response. */
export class AttemptRefusedError extends Error {
  override readonly name = 'AttemptRefusedError';
  constructor(
    readonly code: AttemptRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

import { type ErrorCode } from '@svc/contract';

/** The partner-facing refusals of the intent-session decider; each code is in the error registry. */
export type IntentSessionRefusalCode = Extract<
  ErrorCode,
  | 'intent_session_not_found'
  | 'intent_session_expired'
  | 'intent_session_not_ready'
  | 'intent_session_already_prepared'
>;

/** A command the intent session refuses in its current state; the gateway maps `code` onto the error response. */
export class IntentSessionRefusedError extends Error {
  override readonly name = 'IntentSessionRefusedError';
  constructor(
    readonly code: IntentSessionRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

import { type ErrorCode } from '@svc/contract';

/** The partner-facing refusal of the nonce decider; the code is in the error registry. */
export type NonceRefusalCode = Extract<ErrorCode, 'external_auth_nonce_conflict'>;

/** The nonce is bound to another request tuple: a replayed nonce with other bytes. */
export class NonceRefusedError extends Error {
  override readonly name = 'NonceRefusedError';
  constructor(
    readonly code: NonceRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

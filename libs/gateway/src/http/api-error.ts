import { type ErrorCode, type FieldError, httpStatusOf } from '@svc/contract';

/** A client-visible failure with a stable code; the error filter renders it as an ErrorResponse. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      details?: FieldError[];
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
    } = {},
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = httpStatusOf(code);
  }
}

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
    // An answer to a client, not a fault of ours: no stack is captured (it was 4 % of the CPU of an instance under the
    // abuse test's hostile traffic, issue 23). The cause, when there is one, keeps its own.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, cause === undefined ? undefined : { cause });
    Error.stackTraceLimit = limit;
    this.status = httpStatusOf(code);
  }
}

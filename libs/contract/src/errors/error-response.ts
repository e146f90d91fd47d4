import { type ErrorCode } from './error-codes';

export const API_VERSION = '1' as const;

/** spec: "Error body (ErrorResponse)". `details` is informational: one entry per rejected field. */
export interface ErrorResponse {
  apiVersion: typeof API_VERSION;
  error: string;
  code: ErrorCode;
  message: string;
  path: string;
  details?: FieldError[];
  /** The request's id, as in the X-Request-Id header: quote it to support. Optional, additive within version 1. */
  requestId?: string;
}

export interface FieldError {
  code: ErrorCode;
  /** JSON path of the rejected field, for example `sources[2].amount`. */
  field: string;
  message: string;
}

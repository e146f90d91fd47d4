import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import {
  API_VERSION,
  ERROR_CODE_OPERATIONS,
  ERROR_CODES,
  type ErrorCode,
  type ErrorResponse,
  operationPath,
  validateQuoteRequest,
} from '@svc/contract';
import { ApiError } from '@svc/gateway';
// How the gateway turns a rejected body into an error (code of the first field, every field in details); internal.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { validationFailure } from '../../libs/gateway/src/pipeline/request-checks';
import { ATTEMPT_ID, INTENT_SESSION_ID } from './vector-fixtures';

/** A fixed X-Request-Id (the service sends a fresh UUID per request). */
const REQUEST_ID = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** Codes answered on the socket before any request object exists (HTTP parser, connection caps): `path` is ''. */
function examplePath(code: ErrorCode): string {
  const [operation] = ERROR_CODE_OPERATIONS[code] as readonly Parameters<typeof operationPath>[0][];
  if (operation !== undefined)
    return operationPath(operation)
      .replace('{intentSessionId}', INTENT_SESSION_ID)
      .replace('{attemptId}', ATTEMPT_ID)
      .replace('{chainId}', '8453')
      .replace('{txHash}', `0x${'ab'.repeat(32)}`)
      .replace('{cursor}', 'eyJ2IjoyfQ')
      .replace('{eventId}', 'ev_01');
  if (code === 'route_not_found') return '/api/external/no-such-endpoint';
  if (code === 'method_not_allowed') return operationPath('quote');
  return '';
}

/** The envelope the gateway answers with (libs/gateway send-error-response.ts), for one ApiError. */
function body(error: ApiError, path: string): ErrorResponse {
  return {
    apiVersion: API_VERSION,
    error: STATUS_CODES[error.status] ?? 'Error',
    code: error.code,
    message: error.message,
    path,
    ...(error.extra.details ? { details: error.extra.details } : {}),
    requestId: REQUEST_ID,
  };
}

/**
 * examples/quote-request.json (a quote the contract accepts) with two faults: an unknown field (a typo) and a fee
 * above the partner's maximum.
 */
function rejectedQuote(): { request: string; response: ErrorResponse; status: number } {
  const example = readFileSync(join(__dirname, '..', '..', 'examples', 'quote-request.json'), 'utf8');
  const request = JSON.stringify({ ...(JSON.parse(example) as object), slipageBps: 50, feeBps: 500 });
  const result = validateQuoteRequest(JSON.parse(request), { maxFeeBps: 300, callbackUrl: null });
  if (result.ok) throw new Error('the rejected quote of errors.json was accepted');
  const error = validationFailure(result.errors);
  return { request, status: error.status, response: body(error, operationPath('quote')) };
}

/** errors.json: every code of the registry with its status, where it can occur, and a body of its shape. */
export function errorVectors(): object {
  return {
    apiVersion: API_VERSION,
    cases: (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
      const error = new ApiError(code, ERROR_CODES[code].description);
      return {
        code,
        status: error.status,
        operations: ERROR_CODE_OPERATIONS[code],
        example: body(error, examplePath(code)),
      };
    }),
    fieldErrors: rejectedQuote(),
  };
}

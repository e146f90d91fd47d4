import { randomBytes } from 'node:crypto';
import { PartnerClientError } from '../partner-client.error';
import { type PartnerResponse } from '../partner-response';
import { authHeaders, type OutgoingRequest, type PartnerCredentials } from './auth-headers';
import { retryDelayMs, type RetryPolicy } from './retry-policy';
import { sendOnce } from './send-once';

export interface Transport {
  credentials: PartnerCredentials;
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  policy: RetryPolicy;
  timeoutMs: number;
}

/**
 * Sends one request until it gets a final answer. Every try carries the same bytes and Idempotency-Key (so the
 * server can deduplicate) and a fresh timestamp, nonce and signature (a reused nonce would be a conflict).
 */
export async function sendWithRetries(
  transport: Transport,
  url: string,
  request: OutgoingRequest,
  operationId?: string,
): Promise<PartnerResponse> {
  for (let tries = 1; ; tries++) {
    const nonce = randomBytes(24).toString('base64url');
    const headers = authHeaders(transport.credentials, request, transport.now(), nonce);
    let response: PartnerResponse | undefined;
    let failure: unknown;
    try {
      response = await sendOnce(
        transport.fetch,
        url,
        { method: request.method, headers, body: request.body },
        transport.timeoutMs,
      );
    } catch (error) {
      failure = error;
    }
    const delay = retryDelayMs(response, tries - 1, transport.policy, transport.now());
    if (delay === undefined) {
      if (response !== undefined) return response;
      throw new PartnerClientError(
        `${request.method} ${request.path} got no response after ${tries} tries: ${describe(failure)}`,
        {
          method: request.method,
          path: request.path,
          tries,
          ...(operationId === undefined ? {} : { operationId }),
          ...(request.idempotencyKey === null ? {} : { idempotencyKey: request.idempotencyKey }),
        },
        { cause: failure },
      );
    }
    await transport.sleep(delay);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the socket-level reason in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

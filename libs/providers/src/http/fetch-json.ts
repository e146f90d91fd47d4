import { type HttpResult } from './http-result';
import { type ProviderCallMetric, recordProviderCall } from './provider-metrics';
import { MAX_RESPONSE_BYTES, readBoundedText } from './read-bounded-text';
import { retryAfterMs } from './retry-after';

export type FetchFn = typeof fetch;

export interface JsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Serialised as JSON; POST only. */
  body?: unknown;
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes?: number;
  /** Labels for provider_call_duration_seconds and provider_call_errors_total. */
  metric: ProviderCallMetric;
}

/**
 * One request with the caller's signal and the provider's time-out combined. Never throws: transport
 * problems come back as a result, so adapters can keep the "never throw for provider behaviour" promise.
 * Every call, whatever its outcome, is observed in the provider call metrics.
 */
export async function fetchJson(fetchFn: FetchFn, request: JsonRequest): Promise<HttpResult> {
  const started = process.hrtime.bigint();
  const result = await exchange(fetchFn, request);
  recordProviderCall(request.metric, result, started);
  return result;
}

async function exchange(fetchFn: FetchFn, request: JsonRequest): Promise<HttpResult> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetchFn(request.url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
      // A provider API has no reason to redirect, and following one would send our key header to whatever
      // host it names; the 3xx comes back as an answer and is reported as the provider's failure.
      redirect: 'manual',
    });
  } catch (error) {
    return signal.aborted ? { kind: 'timeout' } : { kind: 'network', detail: describe(error) };
  }
  let text: string | null;
  try {
    text = await readBoundedText(response, request.maxBytes ?? MAX_RESPONSE_BYTES);
  } catch (error) {
    return signal.aborted ? { kind: 'timeout' } : { kind: 'network', detail: describe(error) };
  }
  // Kept on any answer that carries one (a 429, a 503); only failures pass it on.
  const retryAfter = retryAfterMs(response.headers.get('retry-after'), Date.now());
  const hint = retryAfter === null ? {} : { retryAfterMs: retryAfter };
  if (text === null)
    return { kind: 'unreadable', status: response.status, detail: 'response body too large', ...hint };
  try {
    return { kind: 'json', status: response.status, body: JSON.parse(text) as unknown, ...hint };
  } catch {
    return { kind: 'unreadable', status: response.status, detail: 'response body is not JSON', ...hint };
  }
}

/** The error's own message (undici hides the useful part in `cause`); never the URL, which may hold a key. */
function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.name : 'network error';
}

import { inSpan, SpanKind, SpanStatusCode } from '@svc/platform';
import { type HttpResult } from './http-result';
import { providerCallOutcome, type ProviderCallMetric, recordProviderCall } from './provider-metrics';
import {
  type FetchFn,
  fetchHttpClient,
  type ProviderHttpAnswer,
  type ProviderHttpClient,
} from './provider-http';
import { MAX_RESPONSE_BYTES } from './read-bounded-text';
import { retryAfterMs } from './retry-after';

export type { FetchFn } from './provider-http';

/** A provider's own keep-alive pool (ProviderHttp), or any `fetch`-shaped function. */
export type HttpSender = ProviderHttpClient | FetchFn;

export interface JsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Serialised as JSON; POST only. */
  body?: unknown;
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes?: number;
  /** Labels for intent_provider_call_duration_seconds and intent_provider_call_errors_total. */
  metric: ProviderCallMetric;
}

/**
 * One request with the caller's signal and the provider's time-out combined. Never throws: transport
 * problems come back as a result, so adapters can keep the "never throw for provider behaviour" promise.
 * Every call, whatever its outcome, is observed in the provider call metrics, and traced as a CLIENT span named
 * after the provider and operation, with the host alone (the path and query may hold a key) and the outcome.
 */
export function fetchJson(sender: HttpSender, request: JsonRequest): Promise<HttpResult> {
  const { provider, operation } = request.metric;
  const attributes = {
    'svc.provider': provider,
    'svc.provider.operation': operation,
    'http.request.method': request.method,
    'server.address': hostOf(request.url),
  };
  return inSpan(`${provider} ${operation}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const started = process.hrtime.bigint();
    const result = await exchange(typeof sender === 'function' ? fetchHttpClient(sender) : sender, request);
    recordProviderCall(request.metric, result, started);
    const outcome = providerCallOutcome(result);
    span.setAttribute('svc.provider.outcome', outcome);
    if ('status' in result) span.setAttribute('http.response.status_code', result.status);
    if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
    return result;
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'invalid';
  }
}

async function exchange(http: ProviderHttpClient, request: JsonRequest): Promise<HttpResult> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let response: ProviderHttpAnswer;
  try {
    response = await http.send({
      method: request.method,
      url: request.url,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal,
    });
  } catch (error) {
    return signal.aborted ? { kind: 'timeout' } : { kind: 'network', detail: describe(error) };
  }
  let text: string | null;
  try {
    text = await response.text(request.maxBytes ?? MAX_RESPONSE_BYTES);
  } catch (error) {
    return signal.aborted ? { kind: 'timeout' } : { kind: 'network', detail: describe(error) };
  }
  // Kept on any answer that carries one (a 429, a 503); only failures pass it on.
  const retryAfter = retryAfterMs(response.header('retry-after'), Date.now());
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

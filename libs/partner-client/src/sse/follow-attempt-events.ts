import { randomBytes } from 'node:crypto';
import { type PartnerResponse } from '../partner-response';
import { authHeaders } from '../transport/auth-headers';
import { retryDelayMs } from '../transport/retry-policy';
import { type Transport } from '../transport/send-with-retries';
import { HEADER } from '../protocol/wire';
import { type WebhookEvent } from '../webhook/webhook-event';
import { SseParser } from './sse-parser';

/** One lifecycle event of the live status stream: the same id, kind and body as its webhook. */
export interface AttemptStreamEvent {
  /** The event id (equal to the webhook's eventId): pass it as `lastEventId` to resume after it. */
  id: string;
  /** `wallet_submitted`, `provider_pending`, `settled` or `failed`. */
  event: string;
  data: WebhookEvent;
}

export interface FollowOptions {
  /** Resume after this event (the stream replays only what came after it). Default: from the beginning. */
  lastEventId?: string;
  /** Stops following: the iterator ends without an error. Breaking out of `for await` does the same. */
  signal?: AbortSignal;
}

/** The stream was refused with an answer a reconnect cannot change (e.g. 404 attempt_not_found, 401). */
export class AttemptEventsError extends Error {
  override readonly name = 'AttemptEventsError' as const;
  constructor(readonly response: PartnerResponse) {
    super(
      `GET attempt events answered ${response.status}${codeOf(response.body) ? ` ${codeOf(response.body)}` : ''}`,
    );
  }
}

const TERMINAL_STATUSES = new Set(['settled', 'failed', 'expired']);
const TERMINAL_EVENTS = new Set(['settled', 'failed']);
/** A connection open at least this long before it ended does not count towards the retry limit. */
const LONG_LIVED_MS = 10_000;

export interface StreamDeps {
  transport: Transport;
  /** Absolute URL and signed path of the stream. */
  url: string;
  path: string;
  /** Whether the attempt has ended (asked when a stream ends without a settled or failed event). */
  hasEnded: () => Promise<boolean>;
}

/**
 * Follows `GET /attempts/{attemptId}/events` until the attempt ends: every lifecycle event once, in order. When the
 * connection drops or the server ends the stream early (a restart, a deploy), it reconnects with a fresh signature
 * and `Last-Event-ID` set to the last event received, so nothing is missed or repeated. 5xx and 429 answers are
 * retried with the client's backoff (Retry-After honoured); an attempt that ends without an announcing event
 * (`expired`) ends the iteration too. Other refusals throw AttemptEventsError.
 */
export async function* followAttemptEvents(
  deps: StreamDeps,
  options: FollowOptions = {},
): AsyncGenerator<AttemptStreamEvent, void, undefined> {
  const { transport } = deps;
  let lastEventId = options.lastEventId;
  // Consecutive tries that brought no event; any event resets it.
  let failures = 0;
  while (!options.signal?.aborted) {
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let refused: PartnerResponse | undefined;
    let failure: unknown = new Error('the stream ended before the attempt did');
    let reconnectMs: number | null = null;
    try {
      const headers = authHeaders(
        transport.credentials,
        { method: 'GET', path: deps.path, body: null, idempotencyKey: null },
        transport.now(),
        randomBytes(24).toString('base64url'),
      );
      headers['accept'] = 'text/event-stream';
      if (lastEventId !== undefined) headers[HEADER.lastEventId] = lastEventId;
      const openedAt = transport.now();
      const res = await transport.fetch(deps.url, {
        method: 'GET',
        headers,
        redirect: 'manual',
        signal: abort.signal,
      });
      if (res.status !== 200 || res.body === null) {
        const text = await res.text();
        refused = { status: res.status, headers: Object.fromEntries(res.headers), body: parseJson(text) };
      } else {
        let sawTerminal = false;
        const parser = new SseParser();
        const decoder = new TextDecoder();
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
            const data = parseJson(message.data);
            // A message without an id of its own carries the last one (the standard): not a new attempt event.
            const fresh = message.id !== '' && message.id !== lastEventId;
            if (!fresh || typeof data !== 'object' || data === null) continue;
            lastEventId = message.id;
            failures = 0;
            sawTerminal ||= TERMINAL_EVENTS.has(message.event);
            yield { id: message.id, event: message.event, data: data as WebhookEvent };
          }
        }
        // A clean end: the attempt ended, or the server went away first (then resume after the last event).
        if (sawTerminal || (await deps.hasEnded())) return;
        // A stream that stayed open a while before a proxy or a restart closed it is not a failing server.
        if (transport.now() - openedAt >= LONG_LIVED_MS) failures = 0;
        reconnectMs = parser.retryMs;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      failure = error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      abort.abort();
    }
    const delay = retryDelayMs(refused, failures, transport.policy, transport.now());
    if (delay === undefined) {
      if (refused !== undefined) throw new AttemptEventsError(refused);
      throw failure;
    }
    failures++;
    // The server's `retry:` is a floor, as in the Python and Go SDKs.
    await transport.sleep(Math.max(delay, reconnectMs ?? 0));
  }
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function codeOf(body: unknown): string | undefined {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export function isTerminalStatus(status: unknown): boolean {
  return typeof status === 'string' && TERMINAL_STATUSES.has(status);
}

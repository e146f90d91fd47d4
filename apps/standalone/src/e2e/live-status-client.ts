import { request, type IncomingHttpHeaders } from 'node:http';
import { sha256Hex, signRequestV2 } from '@svc/auth';
import { freshNonce, type TestPartner } from '@svc/testing';

/** One Server-Sent Event as the client parsed it. */
export interface LiveEvent {
  id: string;
  event: string;
  data: string;
}

/** An open GET /attempts/{attemptId}/events, read as a partner's SSE client would. */
export interface LiveStatusStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Events received so far, in order. */
  events: LiveEvent[];
  /** Comment lines received (heartbeats, the opening comment). */
  comments: string[];
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** The raw body, for a response that is not a stream (an error). */
  text(): string;
  /** Resolves once at least `count` events arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<LiveEvent[]>;
  /** The client goes away. */
  close(): void;
}

/** The path of an attempt's live status stream and the v2 signature headers of a GET of it (a fresh nonce). */
export function signedLiveStatusGet(
  partner: TestPartner,
  attemptId: string,
): { path: string; headers: Record<string, string> } {
  const path = `/api/external/attempts/${attemptId}/events`;
  const timestamp = String(Date.now());
  const nonce = freshNonce();
  const signature = signRequestV2(partner.secret, {
    partnerId: partner.partnerId,
    timestamp,
    nonce,
    method: 'GET',
    path,
    idempotencyKey: '',
    bodySha256: sha256Hex(Buffer.alloc(0)),
  });
  return {
    path,
    headers: {
      'X-Partner-Id': partner.partnerId,
      'X-Timestamp': timestamp,
      'X-Signature': signature,
      'X-Service-Auth-Version': '2',
      'X-Nonce': nonce,
    },
  };
}

/** Opens the live status stream of an attempt, signed (v2) like every GET, optionally resuming after an event. */
export function openLiveStatus(options: {
  port: number;
  partner: TestPartner;
  attemptId: string;
  lastEventId?: string;
}): Promise<LiveStatusStream> {
  const { path, headers: signed } = signedLiveStatusGet(options.partner, options.attemptId);
  const headers: Record<string, string> = {
    ...signed,
    Accept: 'text/event-stream',
    ...(options.lastEventId === undefined ? {} : { 'Last-Event-ID': options.lastEventId }),
  };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: options.port, method: 'GET', path, headers, agent: false },
      (res) => {
        const events: LiveEvent[] = [];
        const comments: string[] = [];
        let raw = '';
        let buffer = '';
        const waiters = new Set<() => void>();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          raw += chunk;
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(':');
                const name = line.slice(0, colon);
                fields[name] =
                  (fields[name] === undefined ? '' : `${fields[name]}\n`) + line.slice(colon + 2);
              }
            }
            if (fields.data !== undefined)
              events.push({ id: fields.id ?? '', event: fields.event ?? 'message', data: fields.data });
          }
          for (const wake of waiters) wake();
        });
        const ended = new Promise<void>((done) => {
          res.on('end', () => {
            for (const wake of waiters) wake();
            done();
          });
          res.on('close', done);
        });
        let over = false;
        void ended.then(() => (over = true));
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          comments,
          ended,
          text: () => raw,
          waitFor: (count, timeoutMs = 30_000) =>
            new Promise((ok, fail) => {
              const check = () => {
                if (events.length >= count) {
                  clearTimeout(timer);
                  waiters.delete(check);
                  ok(events.slice());
                } else if (over) {
                  clearTimeout(timer);
                  waiters.delete(check);
                  fail(new Error(`the stream ended after ${events.length} of ${count} events`));
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`${events.length} of ${count} events within ${timeoutMs} ms`));
              }, timeoutMs);
              waiters.add(check);
              check();
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

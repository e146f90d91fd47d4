import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { readBoundedText } from './read-bounded-text';

export type FetchFn = typeof fetch;

/** One request to a provider API, as fetchJson builds it. */
export interface ProviderHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Already serialised. */
  body?: string;
  signal: AbortSignal;
}

/** An answer whose body has not been read yet. */
export interface ProviderHttpAnswer {
  status: number;
  /** A response header by its lower-case name, or null. */
  header(name: string): string | null;
  /** The body as text, or null when it exceeds `maxBytes` (the rest is not downloaded). Rejects if it breaks off. */
  text(maxBytes: number): Promise<string | null>;
}

/** What fetchJson sends through: rejects for a transport problem (refused, dropped, aborted by the signal). */
export interface ProviderHttpClient {
  send(request: ProviderHttpRequest): Promise<ProviderHttpAnswer>;
}

/**
 * One provider's keep-alive connection pool (node:http / node:https agents): each adapter owns one, so its sockets
 * are reused across calls and quotes, and redirects are never followed (a 3xx is an answer). It replaces `fetch`,
 * whose WHATWG Request/Response/stream objects were the largest share of the service's CPU per provider call
 * (tools/bench/results/profiles.md, "Quote path"). Idle sockets do not keep the process alive.
 */
export class ProviderHttp implements ProviderHttpClient {
  private readonly http = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  private readonly https = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });

  send(request: ProviderHttpRequest): Promise<ProviderHttpAnswer> {
    return new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const headers =
        request.body === undefined
          ? request.headers
          : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        { method: request.method, headers, agent: secure ? this.https : this.http, signal: request.signal },
        (res) => resolve(incomingAnswer(res)),
      );
      req.on('error', reject);
      req.end(request.body);
    });
  }

  /** Closes every pooled socket (tests; the service keeps its pools for its lifetime). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

function incomingAnswer(res: IncomingMessage): ProviderHttpAnswer {
  return {
    status: res.statusCode ?? 0,
    header: (name) => {
      const value = res.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: async (maxBytes) => {
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        return null;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of res as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxBytes) {
          res.destroy();
          return null;
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks, total).toString('utf8');
    },
  };
}

/** A `fetch`-shaped function as a ProviderHttpClient (a test's stand-in; redirects are never followed). */
export function fetchHttpClient(fetchFn: FetchFn): ProviderHttpClient {
  return {
    send: async (request) => {
      const response = await fetchFn(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        // A provider API has no reason to redirect, and following one would send our key header to whatever
        // host it names; the 3xx comes back as an answer and is reported as the provider's failure.
        redirect: 'manual',
      });
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        text: (maxBytes) => readBoundedText(response, maxBytes),
      };
    },
  };
}

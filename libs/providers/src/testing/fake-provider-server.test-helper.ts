import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/** What the server does with one request. */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Send these bytes as the body, as they are (malformed JSON, oversized bodies). */
  | { status: number; raw: string; headers?: Record<string, string> }
  /** Send the status, headers and the start of a body, then nothing more. */
  | { status: number; stallAfter: string }
  /** Close the socket without answering: the client sees a network error. */
  | 'drop'
  /** Never answer: the client's time-out or abort must end the wait. */
  | 'hang';

export interface ReceivedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when there is none. */
  body: unknown;
}

export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`; append a prefix to test base URLs that carry a path. */
  origin: string;
  received: ReceivedRequest[];
  /** Answer `method path` (path without query) with `reply` until reset; unrouted requests get 404. */
  route(method: string, path: string, reply: Reply | ((request: ReceivedRequest) => Reply)): void;
  reset(): void;
  close(): Promise<void>;
}

/** A real HTTP server on loopback standing in for a provider API: no fetch mocking anywhere. */
export async function startFakeProviderServer(): Promise<FakeProviderServer> {
  const received: ReceivedRequest[] = [];
  const routes = new Map<string, Reply | ((request: ReceivedRequest) => Reply)>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
      received.push(request);
      const route = routes.get(`${request.method} ${request.path}`);
      const reply =
        typeof route === 'function'
          ? route(request)
          : (route ?? { status: 404, body: { message: 'no route' } });
      answer(res, reply, () => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    route: (method, path, reply) => {
      routes.set(`${method} ${path}`, reply);
    },
    reset: () => {
      routes.clear();
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function answer(res: ServerResponse, reply: Reply, drop: () => void): void {
  if (reply === 'drop') return drop();
  if (reply === 'hang') return;
  if ('stallAfter' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.write(reply.stallAfter);
    return;
  }
  const payload = 'raw' in reply ? reply.raw : reply.body === undefined ? '' : JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(payload);
}

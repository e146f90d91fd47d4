import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { authenticateRequest, type AuthResult, type PartnerAuthConfig } from '@svc/auth';

/** What the server did with one request. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Close the socket without answering: the client sees a network error. */
  | 'drop'
  /** Never answer: the client's time-out fires. */
  | 'hang';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  auth: AuthResult;
}

export interface PartnerTestServer {
  baseUrl: string;
  received: Received[];
  /** Replies for the next requests, in order; once used up every request gets 200 `{ ok: true }`. */
  script(...replies: (Reply | ((request: Received) => Reply | Promise<Reply>))[]): void;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that authenticates every request with libs/auth, as the gateway would. */
export async function startPartnerTestServer(
  partners: PartnerAuthConfig[],
  now = Date.now,
): Promise<PartnerTestServer> {
  const received: Received[] = [];
  let replies: (Reply | ((request: Received) => Reply | Promise<Reply>))[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const auth = authenticateRequest(
          { method: req.method ?? '', rawUrl: req.url ?? '', rawHeaders: req.rawHeaders, body },
          (id) => partners.find((p) => p.partnerId === id),
          now(),
        );
        const request: Received = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
          auth,
        };
        received.push(request);
        const next = replies.shift() ?? { status: 200, body: { ok: true } };
        const reply = typeof next === 'function' ? await next(request) : next;
        if (reply === 'drop') return req.socket.destroy();
        if (reply === 'hang') return;
        const status = auth.ok ? reply.status : 401;
        const payload = auth.ok ? reply.body : { code: auth.code, message: auth.message };
        res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    script: (...next) => {
      replies = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

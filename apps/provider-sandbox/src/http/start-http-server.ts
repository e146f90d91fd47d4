import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { matchRoute } from './match-route';
import { toJsonText, type SandboxReply, type SandboxRoute } from './sandbox-http';

export interface HttpServerHandle {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** A plain node:http server dispatching to sandbox routes; unknown paths get a bare 404. */
export async function startHttpServer(options: {
  host: string;
  port: number;
  routes: readonly SandboxRoute[];
  onError(error: unknown): void;
}): Promise<HttpServerHandle> {
  const server = createServer((req, res) => {
    handle(req, res, options.routes).catch((error: unknown) => {
      options.onError(error);
      if (!res.headersSent)
        send(res, { kind: 'json', status: 500, body: { message: 'sandbox internal error' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hanging (timeout-fault) requests and keep-alive sockets would otherwise hold close() open forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  routes: readonly SandboxRoute[],
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = req.method ?? 'GET';
  const match = matchRoute(routes, method, url.pathname);
  if (!match) {
    send(res, { kind: 'json', status: 404, body: { message: `no route for ${method} ${url.pathname}` } });
    return;
  }
  const rawBody = await readBody(req);
  const reply = await match.route.handle({
    method,
    path: url.pathname,
    params: match.params,
    query: url.searchParams,
    headers: req.headers,
    rawBody,
  });
  send(res, reply);
}

function send(res: ServerResponse, reply: SandboxReply): void {
  switch (reply.kind) {
    case 'hang':
      return;
    case 'raw':
      res.writeHead(reply.status, { 'content-type': reply.contentType });
      res.end(reply.text);
      return;
    case 'json':
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
      res.end(toJsonText(reply.body));
      return;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

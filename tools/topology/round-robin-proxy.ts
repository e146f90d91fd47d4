import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  port: number;
  /** The backend port that answered each request, in order. */
  served: number[];
  /** Takes a backend out of rotation (what a Kubernetes Service does before it sends SIGTERM to a pod). */
  drain(port: number): void;
  close(): Promise<void>;
}

/**
 * What a load balancer in front of several gateways does: each request goes to the next live backend in turn. A
 * backend that refuses the connection (dead, or closed its listener) is skipped and the request tried on the next:
 * it never reached any gateway. A connection that breaks once the request went out is answered 502, as a real
 * balancer does; the partner retries with the same Idempotency-Key.
 */
export async function startRoundRobinProxy(backends: () => number[]): Promise<RoundRobinProxy> {
  const served: number[] = [];
  const drained = new Set<number>();
  let next = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const live = backends().filter((p) => !drained.has(p));
      for (let tried = 0; tried < live.length; tried++) {
        const port = live[next++ % live.length];
        const outcome = await forward(req, body, port, res);
        if (outcome === 'refused') continue;
        if (outcome === 'answered') served.push(port);
        return;
      }
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no gateway accepts connections');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    served,
    drain: (port) => drained.add(port),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  port: number,
  res: ServerResponse,
): Promise<'answered' | 'refused' | 'broken'> {
  return new Promise((resolve) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        answer.on('end', () => resolve('answered'));
        answer.on('error', () => resolve('broken'));
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') return resolve('refused');
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(err.message);
      resolve('broken');
    });
    upstream.end(body);
  });
}

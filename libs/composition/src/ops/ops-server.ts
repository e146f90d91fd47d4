import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { API_VERSION, type ErrorResponse } from '@svc/contract';
import { collectProcessMetrics, type Logger } from '@svc/platform';
import { register } from 'prom-client';
import { healthBody, readinessBody, readinessStatus } from './ops.controller';
import { type ReadinessProbe } from './readiness';

export interface OpsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The ops listener of the apps serving the partner API (OPS_PORT): /healthz, /readyz (cached, ReadinessProbe) and
 * /metrics, unauthenticated, for orchestrators and Prometheus only, so neither is reachable on the partner port
 * unless OPS_ON_API_PORT=true. A plain node:http server: no partner code runs on it.
 */
export async function startOpsServer(options: {
  host: string;
  port: number;
  probe: ReadinessProbe;
  logger: Logger;
}): Promise<OpsServer> {
  collectProcessMetrics();
  const server = createServer((req, res) => {
    res.setHeader('X-Request-Id', randomUUID());
    answer(req, res, options.probe).catch((err: unknown) => {
      options.logger.error({ err, path: req.url }, 'ops request failed');
      if (!res.headersSent)
        json(res, 500, errorBody(500, 'internal_error', 'the ops request failed', req, res));
      else res.destroy();
    });
  });
  server.headersTimeout = 5000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { port, url: `http://${host}:${port}`, close: () => closeServer(server) };
}

async function answer(req: IncomingMessage, res: ServerResponse, probe: ReadinessProbe): Promise<void> {
  const path = (req.url ?? '/')
    .split('?')[0]
    .replace(/(.)\/$/, '$1')
    .toLowerCase();
  const routes: Record<string, () => Promise<void>> = {
    '/healthz': () => Promise.resolve(json(res, 200, healthBody())),
    '/readyz': async () => {
      const report = await probe.report();
      json(res, readinessStatus(report), readinessBody(report));
    },
    '/metrics': async () => {
      const text = await register.metrics();
      res.writeHead(200, { 'Content-Type': register.contentType, 'Content-Length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
    },
  };
  const route = routes[path];
  if (!route)
    return json(res, 404, errorBody(404, 'route_not_found', `no endpoint ${req.method} ${path}`, req, res));
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return json(
      res,
      405,
      errorBody(405, 'method_not_allowed', `${req.method} is not allowed on ${path}`, req, res),
    );
  }
  await route();
}

function errorBody(
  status: number,
  code: ErrorResponse['code'],
  message: string,
  req: IncomingMessage,
  res: ServerResponse,
): ErrorResponse {
  const error =
    status === 404 ? 'Not Found' : status === 405 ? 'Method Not Allowed' : 'Internal Server Error';
  const path = (req.url ?? '').split('?')[0] ?? '';
  const requestId = String(res.getHeader('X-Request-Id'));
  return { apiVersion: API_VERSION, error, code, message, path, requestId };
}

function json(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

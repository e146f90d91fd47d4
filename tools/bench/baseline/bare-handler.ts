import { type IncomingMessage, type ServerResponse } from 'node:http';
import { authenticateRequest, type PartnerAuthConfig } from '@svc/auth';
import { API_PREFIX, API_VERSION } from '@svc/contract';
import { type BareStore } from './bare-store';

const STATUS_PATH = new RegExp(`^${API_PREFIX}/attempts/([^/]+)/status$`);

/**
 * The bare baseline's request handler: the service's v2 verification (`authenticateRequest` over the raw URL,
 * headers and body, as the gateway calls it), the durable nonce write, and for a status read one row by key. Nothing
 * else: no framework, no rate limit, no logs. What it serves per second is what the platform allows.
 */
export function createBareHandler(deps: {
  partners: ReadonlyMap<string, PartnerAuthConfig>;
  store: BareStore;
}): (req: IncomingMessage, res: ServerResponse) => void {
  const lookup = (id: string) => deps.partners.get(id);
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/readyz') return reply(res, 200, '{"status":"ready"}');
      const now = Date.now();
      const auth = authenticateRequest(
        {
          method: req.method ?? 'GET',
          rawUrl: req.url ?? '/',
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks),
        },
        lookup,
        now,
      );
      if (!auth.ok) return reply(res, 401, JSON.stringify({ code: auth.code, message: auth.message }));
      if (auth.nonce && auth.requestTupleHash) {
        if (!deps.store.useNonce(auth.partnerId, auth.nonce, auth.requestTupleHash, now)) {
          return reply(res, 409, '{"code":"external_auth_nonce_conflict"}');
        }
      }
      if (auth.path === `${API_PREFIX}/ping`) {
        return reply(
          res,
          200,
          JSON.stringify({ apiVersion: API_VERSION, ok: true, partnerId: auth.partnerId }),
        );
      }
      const status = STATUS_PATH.exec(auth.path);
      const snapshot = status
        ? deps.store.snapshot(decodeURIComponent(status[1]), auth.partnerId)
        : undefined;
      if (snapshot === undefined) return reply(res, 404, '{"code":"not_found"}');
      reply(res, 200, snapshot);
    });
  };
}

function reply(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '@svc/auth';
import { FileIdempotencyStore } from './idempotency/file-idempotency-store';
import { MemoryIdempotencyStore } from './idempotency/memory-idempotency-store';
import { IdempotencyConflictError } from './idempotency-conflict.error';
import { InvalidResourceIdError } from './invalid-resource-id.error';
import { PartnerClient } from './partner-client';
import { type PartnerClientOptions } from './partner-client-options';
import { PartnerClientError } from './partner-client.error';
import {
  type PartnerTestServer,
  type Received,
  startPartnerTestServer,
} from './partner-test-server.test-helper';

const partners = [
  { partnerId: 'partner-v2', secret: 'secret-v2-0123456789', authVersion: 2 as const },
  { partnerId: 'partner-v1', secret: 'secret-v1-0123456789', authVersion: 1 as const },
];
const QUOTE = {
  walletAddress: '0x1111111111111111111111111111111111111111',
  sources: [{ chainId: 1, amount: '1000' }],
  note: 'é€',
};

let server: PartnerTestServer;
let dir: string;
beforeEach(async () => {
  server = await startPartnerTestServer(partners);
  dir = mkdtempSync(join(tmpdir(), 'partner-client-'));
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(authVersion: 1 | 2 = 2, options: Partial<PartnerClientOptions> = {}): PartnerClient {
  const partner = partners.find((p) => p.authVersion === authVersion)!;
  return new PartnerClient({ baseUrl: server.baseUrl, ...partner, retryBaseDelayMs: 5, ...options });
}
const header = (r: Received, name: string) => r.headers[name] as string | undefined;

describe('PartnerClient: signing (verified by libs/auth on a real HTTP server)', () => {
  it.each([1, 2] as const)('v%s GET ping verifies, with no body and no Idempotency-Key', async (version) => {
    const response = await client(version).ping();
    expect(response).toMatchObject({ status: 200, body: { ok: true } });
    const [request] = server.received;
    expect(request.auth).toMatchObject({ ok: true, authVersion: version, path: '/api/external/ping' });
    expect(request).toMatchObject({ method: 'GET', url: '/api/external/ping' });
    expect(request.body).toHaveLength(0);
    expect(header(request, 'idempotency-key')).toBeUndefined();
    expect(header(request, 'x-service-auth-version')).toBe(version === 2 ? '2' : undefined);
  });

  it.each([1, 2] as const)(
    'v%s POST quote verifies and sends the JSON.stringify bytes it signed',
    async (version) => {
      const response = await client(version).quote(QUOTE, { idempotencyKey: 'quote-1' });
      expect(response.status).toBe(200);
      const [request] = server.received;
      expect(request.auth).toMatchObject({
        ok: true,
        authVersion: version,
        path: '/api/external/intents/quote',
      });
      expect(request.body.equals(Buffer.from(JSON.stringify(QUOTE), 'utf8'))).toBe(true);
      expect(header(request, 'idempotency-key')).toBe('quote-1');
      expect(header(request, 'content-type')).toBe('application/json');
    },
  );

  it('signs the deployed pathname under a base URL with a path prefix', async () => {
    await client(2, { baseUrl: `${server.baseUrl}/edge/` }).status('att_1');
    expect(server.received[0]).toMatchObject({
      url: '/edge/api/external/attempts/att_1/status',
      auth: { ok: true },
    });
  });

  it('sends prepare without a body as {} and submitted and status to their paths', async () => {
    const c = client();
    await c.prepare('is_1');
    await c.submitted('att_1', { chainResults: [] });
    await c.status('att_1');
    expect(server.received.map((r) => [r.method, r.url, r.body.toString(), r.auth.ok])).toEqual([
      ['POST', '/api/external/intents/is_1/prepare', '{}', true],
      ['POST', '/api/external/attempts/att_1/submitted', '{"chainResults":[]}', true],
      ['GET', '/api/external/attempts/att_1/status', '', true],
    ]);
  });

  it('uses a fresh nonce (16-128 chars of the allowed set) for every request', async () => {
    const c = client();
    await c.ping();
    await c.ping();
    const nonces = server.received.map((r) => header(r, 'x-nonce'));
    expect(nonces[0]).toMatch(/^[A-Za-z0-9._~-]{16,128}$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('returns 4xx answers instead of throwing', async () => {
    const response = await client(2, { secret: 'wrong' }).ping();
    expect(response).toMatchObject({ status: 401, body: { code: 'external_auth_signature_invalid' } });
  });

  it('refuses an id that would need escaping, before sending anything', async () => {
    await expect(client().status('../ping')).rejects.toBeInstanceOf(InvalidResourceIdError);
    await expect(client().prepare('a/b')).rejects.toBeInstanceOf(InvalidResourceIdError);
    expect(server.received).toHaveLength(0);
  });
});

describe('PartnerClient: retries', () => {
  function expectSameOperation(requests: Received[]) {
    const keys = new Set(requests.map((r) => header(r, 'idempotency-key')));
    const bodies = new Set(requests.map((r) => r.body.toString('hex')));
    const nonces = new Set(requests.map((r) => header(r, 'x-nonce')));
    expect([keys.size, bodies.size, nonces.size]).toEqual([1, 1, requests.length]);
    expect(requests.every((r) => r.auth.ok)).toBe(true);
  }

  it('retries after a 503 with the same key and byte-identical body, and a new nonce', async () => {
    server.script({ status: 503, body: { code: 'dependency_unavailable' } });
    const response = await client().quote(QUOTE);
    expect(response.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expectSameOperation(server.received);
  });

  it('retries after a dropped connection with the same key and bytes, and a new nonce', async () => {
    server.script('drop');
    const response = await client().submitted('att_1', { chainResults: [{ chainId: 1, bundleId: 'b' }] });
    expect(response.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expectSameOperation(server.received);
  });

  it('retries after a time-out', async () => {
    server.script('hang');
    const response = await client(2, { requestTimeoutMs: 200 }).quote(QUOTE);
    expect(response.status).toBe(200);
    expectSameOperation(server.received);
  });

  it('honours Retry-After on 429', async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' }, body: { code: 'rate_limited' } });
    const started = Date.now();
    const response = await client().ping();
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.received).toHaveLength(2);
  });

  it('caps Retry-After at retryMaxDelayMs', async () => {
    const sleeps: number[] = [];
    server.script({ status: 429, headers: { 'retry-after': '3600' } });
    await client(2, { retryMaxDelayMs: 40, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) }).ping();
    expect(sleeps).toEqual([40]);
  });

  it.each([
    ['400', { status: 400, body: { code: 'invalid_request_body' } }],
    ['404', { status: 404, body: { code: 'attempt_not_found' } }],
    ['409 other than in-progress', { status: 409, body: { code: 'intent_session_expired' } }],
    ['422', { status: 422, body: { code: 'idempotency_key_reused' } }],
    ['501', { status: 501, body: { code: 'not_implemented' } }],
  ])('does not retry a %s', async (_label, reply) => {
    server.script(reply);
    const response = await client().quote(QUOTE);
    expect(response.status).toBe(reply.status);
    expect(server.received).toHaveLength(1);
  });

  it.each([
    ['500', { status: 500 }],
    ['502', { status: 502 }],
    [
      '409 idempotency_request_in_progress',
      { status: 409, body: { code: 'idempotency_request_in_progress' } },
    ],
  ])('retries a %s', async (_label, reply) => {
    server.script(reply);
    expect((await client().quote(QUOTE)).status).toBe(200);
    expectSameOperation(server.received);
  });

  it('returns the last answer once retries are spent', async () => {
    server.script({ status: 503 }, { status: 503 }, { status: 503 });
    const response = await client(2, { maxRetries: 2 }).ping();
    expect(response.status).toBe(503);
    expect(server.received).toHaveLength(3);
  });

  it('returns a redirect instead of following it', async () => {
    server.script({ status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    expect((await client().ping()).status).toBe(307);
  });

  it('throws PartnerClientError naming the operation when no answer ever comes, and resumes with it', async () => {
    server.script('drop', 'drop', 'drop');
    const c = client(2, { maxRetries: 2 });
    const error = (await c
      .quote(QUOTE, { operationId: 'op-lost' })
      .catch((e: unknown) => e)) as PartnerClientError;
    expect(error).toBeInstanceOf(PartnerClientError);
    expect(error.name).toBe('PartnerClientError');
    expect(error.details).toMatchObject({ method: 'POST', tries: 3, operationId: 'op-lost' });
    expect(error.message).not.toContain('secret');

    const response = await c.quote(QUOTE, { operationId: 'op-lost' });
    expect(response.status).toBe(200);
    expect(server.received).toHaveLength(4);
    expect(header(server.received[3], 'idempotency-key')).toBe(error.details.idempotencyKey);
    expectSameOperation(server.received);
  });
});

describe('PartnerClient: idempotency store', () => {
  it('persists key and body before the request is sent', async () => {
    const store = new MemoryIdempotencyStore();
    server.script(async (request) => {
      const stored = await store.get('op-1');
      return {
        status: 200,
        body: { storedKey: stored?.key, storedBody: stored?.body, sent: request.body.toString() },
      };
    });
    const response = await client(2, { idempotencyStore: store }).quote(QUOTE, {
      operationId: 'op-1',
      idempotencyKey: 'k-1',
    });
    expect(response.body).toEqual({
      storedKey: 'k-1',
      storedBody: JSON.stringify(QUOTE),
      sent: JSON.stringify(QUOTE),
    });
  });

  it('gives each call without an operationId a new key', async () => {
    const c = client();
    await c.quote(QUOTE);
    await c.quote(QUOTE);
    const keys = server.received.map((r) => header(r, 'idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('keeps no record of a call without an operationId once it has an answer; keeps one it may have to resume', async () => {
    const path = join(dir, 'unnamed.json');
    const operations = () =>
      (JSON.parse(readFileSync(path, 'utf8')) as { operations: Record<string, unknown> }).operations;
    const c = client(2, { idempotencyStore: new FileIdempotencyStore(path), maxRetries: 1 });
    await c.quote(QUOTE);
    await c.quote(QUOTE, { operationId: 'named' });
    server.script({ status: 409, body: { code: 'idempotency_key_conflict' } });
    await c.quote(QUOTE);
    expect(Object.keys(operations())).toEqual(['named']);

    server.script('drop', 'drop');
    const error = (await c.quote(QUOTE).catch((e: unknown) => e)) as PartnerClientError;
    const lost = error.details.operationId as string;
    expect(Object.keys(operations()).sort()).toEqual([lost, 'named'].sort());
    await c.quote(QUOTE, { operationId: lost });
    expect(header(server.received.at(-1)!, 'idempotency-key')).toBe(error.details.idempotencyKey);
  });

  it('survives a new client instance with the file store: same operationId, same key and bytes', async () => {
    const path = join(dir, 'nested', 'idempotency.json');
    server.script('drop');
    await expect(
      client(2, { idempotencyStore: new FileIdempotencyStore(path), maxRetries: 0 }).quote(QUOTE, {
        operationId: 'quote:abc',
      }),
    ).rejects.toBeInstanceOf(PartnerClientError);

    const fresh = client(2, { idempotencyStore: new FileIdempotencyStore(path) });
    expect((await fresh.quote(QUOTE, { operationId: 'quote:abc' })).status).toBe(200);

    const [first, second] = server.received;
    expect(header(second, 'idempotency-key')).toBe(header(first, 'idempotency-key'));
    expect(sha256Hex(second.body)).toBe(sha256Hex(first.body));
    expect(header(second, 'x-nonce')).not.toBe(header(first, 'x-nonce'));
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file.operations['quote:abc']).toEqual({
      key: header(first, 'idempotency-key'),
      body: JSON.stringify(QUOTE),
    });
  });

  it('refuses to reuse an operationId for another body or key, sending nothing', async () => {
    const c = client();
    await c.quote(QUOTE, { operationId: 'op-2', idempotencyKey: 'k-2' });
    await expect(c.quote({ ...QUOTE, note: 'other' }, { operationId: 'op-2' })).rejects.toMatchObject({
      name: 'IdempotencyConflictError',
      conflict: 'body',
    });
    await expect(c.quote(QUOTE, { operationId: 'op-2', idempotencyKey: 'k-3' })).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    expect(server.received).toHaveLength(1);
  });
});

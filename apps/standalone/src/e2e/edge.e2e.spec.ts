import { connect, type Socket } from 'node:net';
import { buildOpenApiDocument, renderApiReferenceHtml } from '@svc/contract';
import { type PartnerConfig } from '@svc/platform';
import { rawRequest, type RawResponse, signedRequest } from '@svc/testing';
import { exchange, type RawExchange, wellFormedAuth } from './raw-exchange.test-helper';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const PING = '/api/external/ping';
const QUOTE = '/api/external/intents/quote';
const STATUS = '/api/external/attempts/at_missing/status';

/** The envelope every refusal of the parser or the connection cap carries. */
function expectEnvelope(res: RawExchange, status: number, code: string): void {
  expect([res.status, res.json.code, res.json.apiVersion, res.json.path]).toEqual([status, code, '1', '']);
  expect(res.headers['x-service-api-version']).toBe('1');
  expect(res.headers['connection']).toBe('close');
  expect(res.json.requestId).toBe(res.headers['x-request-id']);
  expect(res.json.requestId).toMatch(/^[0-9a-f-]{36}$/);
}

function expectErrorWithRequestId(res: RawResponse, status: number, code: string): void {
  expect([res.status, res.json.code]).toEqual([status, code]);
  expect(res.json.requestId).toBe(res.headers['x-request-id']);
}

describe('the HTTP edge: served reference, conventions and defences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('the OpenAPI document and reference, unsigned, outside the signed prefix', () => {
    it('serves /openapi.json equal to the document built from libs/contract, cacheable, with the version header', async () => {
      const res = await rawRequest({ port: t.port, method: 'GET', path: '/openapi.json' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
      expect(res.headers['x-service-api-version']).toBe('1');
      expect(res.headers['x-request-id']).toBeDefined();
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const etag = String(res.headers['etag']);
      const again = await rawRequest({
        port: t.port,
        method: 'GET',
        path: '/openapi.json',
        headers: [['If-None-Match', etag]],
      });
      expect([again.status, again.text, again.headers['etag']]).toEqual([304, '', etag]);
    });

    it('serves /docs, the rendered reference, self-contained so that it works offline', async () => {
      const res = await rawRequest({ port: t.port, method: 'GET', path: '/docs' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toBe(renderApiReferenceHtml(buildOpenApiDocument()));
      expect(res.text).not.toMatch(/<(script|link|img)[^>]+(src|href)="(https?:)?\/\//i);
      expect(res.headers['x-service-api-version']).toBe('1');
    });
  });

  describe('conventions', () => {
    it('puts the X-Request-Id of every error into its body as requestId', async () => {
      expectErrorWithRequestId(
        await rawRequest({ port: t.port, method: 'GET', path: '/api/external/nowhere' }),
        404,
        'route_not_found',
      );
      expectErrorWithRequestId(
        await rawRequest({ port: t.port, method: 'GET', path: PING }),
        401,
        'external_auth_headers_required',
      );
      expectErrorWithRequestId(
        await signedRequest({ port: t.port, partner: PARTNERS.v2, method: 'POST', path: QUOTE, body: '{' }),
        400,
        'invalid_json',
      );
      expectErrorWithRequestId(
        await rawRequest({ port: t.port, method: 'GET', path: '/%zz' }),
        404,
        'route_not_found',
      );
    });

    it('reports the partner policy and the quota left on every authenticated response', async () => {
      const res = await signedRequest({ port: t.port, partner: PARTNERS.other, method: 'GET', path: PING });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"partner";q=10000;w=60');
      expect(res.headers['ratelimit']).toMatch(/^"partner";r=9999;t=1$/);
    });
  });

  describe('parser refusals, answered with the envelope on a raw socket', () => {
    it('answers a malformed request line 400 malformed_http_request', async () => {
      expectEnvelope(await exchange(t.port, ['GARBAGE\r\n\r\n']), 400, 'malformed_http_request');
    });

    it('answers a header block over 16 KiB 431 request_header_fields_too_large', async () => {
      const res = await exchange(t.port, [
        `GET ${PING} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ]);
      expectEnvelope(res, 431, 'request_header_fields_too_large');
    });

    it('answers a bad chunk 400 malformed_http_request', async () => {
      const head = `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${wellFormedAuth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      expectEnvelope(await exchange(t.port, [head, 'zz\r\n{}\r\n0\r\n\r\n']), 400, 'malformed_http_request');
    });

    it('answers an HTTP/1.1 request without Host 400 malformed_http_request, with the envelope and the version header', async () => {
      const res = await exchange(t.port, [`GET ${PING} HTTP/1.1\r\nX-Partner-Id: p\r\n\r\n`]);
      expect([res.status, res.json.code, res.json.apiVersion, res.json.path]).toEqual([
        400,
        'malformed_http_request',
        '1',
        PING,
      ]);
      expect(res.headers['x-service-api-version']).toBe('1');
      expect(res.headers['connection']).toBe('close');
      expect(res.json.message).toMatch(/Host/);
      expect(res.json.requestId).toBe(res.headers['x-request-id']);
    });

    it('answers an HTTP/1.0 request without Host as any other (Host is optional there)', async () => {
      const res = await exchange(t.port, ['GET /healthz HTTP/1.0\r\n\r\n']);
      expect(res.status).toBe(200);
    });

    it('answers an HTTP/2 preface 400 malformed_http_request', async () => {
      const res = await exchange(t.port, ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']);
      expectEnvelope(res, 400, 'malformed_http_request');
      expect(res.json.message).toMatch(/HTTP\/1\.1/);
    });
  });

  describe('limits of one instance', () => {
    let edge: TestApp;
    const budget = { ...PARTNERS.other, partnerId: 'partner-budget', rateLimitPerMinute: 10 };
    const weighted = { ...PARTNERS.other, partnerId: 'partner-weighted', rateLimitPerMinute: 30 };
    const fanOut = { ...PARTNERS.other, partnerId: 'partner-fan-out', rateLimitPerMinute: 60 };
    const attacked = { ...PARTNERS.other, partnerId: 'partner-attacked' };
    beforeAll(async () => {
      edge = await startTestApp({
        env: {
          HTTP_HEADERS_TIMEOUT_MS: '1000',
          HTTP_REQUEST_TIMEOUT_MS: '1500',
          AUTH_FAILURES_PER_MINUTE: '3',
        },
        partners: [...Object.values(PARTNERS), budget, weighted, fanOut, attacked] as PartnerConfig[],
      });
    });
    afterAll(() => edge.close());

    it('closes a connection whose headers trickle in (slowloris) with 408 request_timeout', async () => {
      const res = await exchange(edge.port, [
        `GET ${PING} HTTP/1.1\r\n`,
        'Host: x\r\n',
        700,
        'X-A: 1\r\n',
        700,
        'X-B: 2\r\n',
        1500,
      ]);
      expectEnvelope(res, 408, 'request_timeout');
      expect(res.closedAfterMs).toBeLessThan(3500);
    });

    it('closes a connection whose body never arrives with 408 request_timeout', async () => {
      const head = `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${wellFormedAuth()}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
      const res = await exchange(edge.port, [head, 3000]);
      expectEnvelope(res, 408, 'request_timeout');
    });

    it('answers a connection past MAX_CONNECTIONS 503 connection_limit_reached, and serves again once one closes', async () => {
      const capped = await startTestApp({ env: { MAX_CONNECTIONS: '3' } });
      const held: Socket[] = await Promise.all(
        [0, 1, 2].map(
          () =>
            new Promise<Socket>((resolve) => {
              const s = connect(capped.port, '127.0.0.1', () => resolve(s));
            }),
        ),
      );
      try {
        const refused = await exchange(capped.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`]);
        expectEnvelope(refused, 503, 'connection_limit_reached');
        expect(refused.headers['retry-after']).toBe('1');
      } finally {
        await Promise.all(held.map((s) => new Promise((r) => s.once('close', r).destroy())));
      }
      await new Promise((r) => setTimeout(r, 50));
      expect((await rawRequest({ port: capped.port, method: 'GET', path: '/healthz' })).status).toBe(200);
      await capped.close();
    });

    it('admits exactly the budget of 20 requests sent at once, with RateLimit fields and Retry-After on each 429', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          signedRequest({ port: edge.port, partner: budget, method: 'GET', path: STATUS }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      // status of an unknown attempt: 404 once admitted, 429 once the budget of 10 is spent
      expect(statuses).toEqual([...Array(10).fill(404), ...Array(10).fill(429)]);
      const remaining = answers.filter((a) => a.status === 404).map((a) => String(a.headers['ratelimit']));
      expect(remaining.map((r) => /r=(\d+)/.exec(r)?.[1]).sort()).toEqual([
        '0',
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
        '9',
      ]);
      for (const limited of answers.filter((a) => a.status === 429)) {
        expect(limited.json.code).toBe('rate_limited');
        expect(limited.json.requestId).toBe(limited.headers['x-request-id']);
        expect(limited.headers['ratelimit-policy']).toBe('"partner";q=10;w=60');
        expect(limited.headers['ratelimit']).toMatch(/^"partner";r=0;t=\d+$/);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    });

    it('weighs a quote by sources × providers: 1 + 3 × 2 = 7 units, then refuses one that no longer fits', async () => {
      const body = {
        sources: [{}, {}, {}],
        allowedProviders: ['relay', 'across'],
      };
      const quote = () =>
        signedRequest({ port: edge.port, partner: weighted, method: 'POST', path: QUOTE, body });
      const remaining = async () => {
        const res = await quote();
        return [res.status, /r=(\d+)/.exec(String(res.headers['ratelimit']))?.[1]];
      };
      // Charged once authenticated, before the body is validated (this one is refused 400 afterwards).
      expect(await remaining()).toEqual([400, '23']);
      expect(await remaining()).toEqual([400, '16']);
      expect(await remaining()).toEqual([400, '9']);
      expect(await remaining()).toEqual([400, '2']);
      const limited = await quote();
      expect([limited.status, limited.json.code]).toEqual([429, 'rate_limited']);
      expect(limited.headers['ratelimit']).toMatch(/^"partner";r=0;t=5[5-6]$/);
      // 5 units missing at 30 a minute: 10 s, less what refilled while the test ran
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(9);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(10);
      const ping = await signedRequest({ port: edge.port, partner: weighted, method: 'GET', path: PING });
      expect([ping.status, ping.headers['ratelimit']]).toEqual([
        200,
        expect.stringMatching(/^"partner";r=1;t=5[6-8]$/),
      ]);
    });

    it('weighs a quote by the slices it may route (security review N-L4): 1 + (1 source + 10 targets - 1) × 2 = 21 units', async () => {
      const quote = (body: unknown) =>
        signedRequest({ port: edge.port, partner: fanOut, method: 'POST', path: QUOTE, body });
      const charged = async (body: unknown) => {
        const res = await quote(body);
        return [res.status, /r=(\d+)/.exec(String(res.headers['ratelimit']))?.[1]];
      };
      const providers = ['relay', 'across'];
      // One source cut at each of 10 targets' quotas: up to 10 slices, each asked of both providers.
      const tenTargets = { sources: [{}], targets: Array(10).fill({}), allowedProviders: providers };
      expect(await charged(tenTargets)).toEqual([400, '39']);
      // The single-target form routes one slice per source, as before: 1 + 1 × 2.
      expect(await charged({ sources: [{}], target: {}, allowedProviders: providers })).toEqual([400, '36']);
      // A longer targets array costs what the most a quote may have (10) does; it is refused afterwards.
      expect(await charged({ ...tenTargets, targets: Array(500).fill({}) })).toEqual([400, '15']);
      const limited = await quote(tenTargets);
      expect([limited.status, limited.json.code]).toEqual([429, 'rate_limited']);
    });

    it('throttles what fails authentication per address and claimed partner, and never a request that authenticates', async () => {
      const forged = (partnerId: string) =>
        rawRequest({
          port: edge.port,
          method: 'GET',
          path: PING,
          headers: [
            ['X-Partner-Id', partnerId],
            ['X-Timestamp', String(Date.now())],
            ['X-Signature', '0'.repeat(64)],
          ],
        });
      for (const left of [2, 1, 0]) {
        const res = await forged(attacked.partnerId);
        expect([res.status, res.headers['ratelimit-policy'], res.headers['ratelimit']]).toEqual([
          401,
          '"unauthenticated";q=3;w=60',
          `"unauthenticated";r=${left};t=${(3 - left) * 20}`,
        ]);
      }
      const limited = await forged(attacked.partnerId);
      expectErrorWithRequestId(limited, 429, 'unauthenticated_rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.headers['ratelimit']).toMatch(/^"unauthenticated";r=0;t=\d+$/);
      expect(limited.headers['x-service-api-version']).toBe('1');

      // The partner itself, from the same address, correctly signed: served, GET and POST alike.
      const ping = await signedRequest({ port: edge.port, partner: attacked, method: 'GET', path: PING });
      expect(ping.status).toBe(200);
      const quote = await signedRequest({
        port: edge.port,
        partner: attacked,
        method: 'POST',
        path: QUOTE,
        body: {},
      });
      expect(quote.status).toBe(400);
      // Another partner id from the same address has a budget of its own.
      expect((await forged(PARTNERS.other.partnerId)).status).toBe(401);

      // A spent budget has at most two bodies read at once (a body must be read to be verified); a third declared
      // 200 kB body that is never sent is refused at once, before it is read.
      const head =
        `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${wellFormedAuth(attacked.partnerId)}` +
        'Content-Type: application/json\r\nContent-Length: 200000\r\n\r\n';
      const reading = [exchange(edge.port, [head, 5000]), exchange(edge.port, [head, 5000])];
      await new Promise((r) => setTimeout(r, 200));
      const early = await exchange(edge.port, [head, 5000]);
      expect([early.status, early.json.code, early.headers['connection']]).toEqual([
        429,
        'unauthenticated_rate_limited',
        'close',
      ]);
      expect(early.closedAfterMs).toBeLessThan(1000);
      // The two being read end at the request timeout (1.5 s here), like any body that never arrives.
      expect((await Promise.all(reading)).map((r) => r.status)).toEqual([408, 408]);
      // Probes and the reference are not API requests: never throttled.
      expect((await rawRequest({ port: edge.port, method: 'GET', path: '/healthz' })).status).toBe(200);
      expect((await rawRequest({ port: edge.port, method: 'GET', path: '/openapi.json' })).status).toBe(200);
    });
  });

  describe('the failed-authentication throttle behind a proxy (TRUST_PROXY)', () => {
    const failFrom = (port: number, forwardedFor: string) =>
      rawRequest({ port, method: 'GET', path: PING, headers: [['X-Forwarded-For', forwardedFor]] });

    it('counts each forwarded client apart when the proxy is trusted', async () => {
      const behind = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1' } });
      try {
        for (let i = 0; i < 2; i++) expect((await failFrom(behind.port, '203.0.113.7')).status).toBe(401);
        expect((await failFrom(behind.port, '203.0.113.7')).status).toBe(429);
        // Another client behind the same balancer still gets its own budget.
        expect((await failFrom(behind.port, '198.51.100.9')).status).toBe(401);
      } finally {
        await behind.close();
      }
    });

    it('ignores X-Forwarded-For from a peer it does not trust: a client cannot pick a fresh address per request', async () => {
      const direct = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '2' } });
      try {
        expect((await failFrom(direct.port, '203.0.113.1')).status).toBe(401);
        expect((await failFrom(direct.port, '203.0.113.2')).status).toBe(401);
        expect((await failFrom(direct.port, '203.0.113.3')).status).toBe(429);
      } finally {
        await direct.close();
      }
    });
  });

  describe('the ops listener', () => {
    it('serves /readyz and /metrics on OPS_PORT only, /healthz on both', async () => {
      for (const path of ['/readyz', '/metrics']) {
        const api = await rawRequest({ port: t.port, method: 'GET', path });
        expect([path, api.status, api.json?.code]).toEqual([path, 404, 'route_not_found']);
        expect([path, (await rawRequest({ port: t.opsPort, method: 'GET', path })).status]).toEqual([
          path,
          200,
        ]);
      }
      expect((await rawRequest({ port: t.port, method: 'GET', path: '/healthz' })).status).toBe(200);
      expect((await rawRequest({ port: t.opsPort, method: 'GET', path: '/healthz' })).status).toBe(200);
      const metrics = await rawRequest({ port: t.opsPort, method: 'GET', path: '/metrics' });
      expect(metrics.text).toContain('intent_http_request_duration_seconds');
      const unknown = await rawRequest({ port: t.opsPort, method: 'GET', path: '/api/external/ping' });
      expect([unknown.status, unknown.json.code]).toEqual([404, 'route_not_found']);
      expect(unknown.json.requestId).toBe(unknown.headers['x-request-id']);
      const post = await rawRequest({ port: t.opsPort, method: 'POST', path: '/readyz', body: '' });
      expect([post.status, post.json.code, post.headers['allow']]).toEqual([
        405,
        'method_not_allowed',
        'GET, HEAD',
      ]);
    });

    it('serves them on the partner port too with OPS_ON_API_PORT=true', async () => {
      const both = await startTestApp({ env: { OPS_ON_API_PORT: 'true' } });
      try {
        for (const path of ['/readyz', '/metrics'])
          expect([path, (await rawRequest({ port: both.port, method: 'GET', path })).status]).toEqual([
            path,
            200,
          ]);
      } finally {
        await both.close();
      }
    });
  });
});

import { freshNonce, rawRequest, type RawResponse, signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const PING = '/api/external/ping';
const FIVE_MIN = 5 * 60 * 1000;

describe('authentication over HTTP (GET /api/external/ping)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const ping = (o: Partial<Parameters<typeof signedRequest>[0]> = {}) =>
    signedRequest({ port: t.port, partner: PARTNERS.v2, method: 'GET', path: PING, ...o });

  it('answers a signed v2 ping with the Ping body and the version header', async () => {
    const res = await ping();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ apiVersion: '1', ok: true, partnerId: 'partner-v2' });
    expect(res.headers['x-service-api-version']).toBe('1');
  });

  it('answers a legacy v1 partner signing <timestamp>.<body>', async () => {
    const res = await signedRequest({ port: t.port, partner: PARTNERS.v1, method: 'GET', path: PING });
    expect(res.json).toEqual({ apiVersion: '1', ok: true, partnerId: 'partner-v1' });
  });

  it('accepts a v1 partner sending auth version 1 explicitly', async () => {
    const res = await signedRequest({
      port: t.port,
      partner: PARTNERS.v1,
      method: 'GET',
      path: PING,
      extraHeaders: [['X-Service-Auth-Version', '1']],
    });
    expect(res.status).toBe(200);
  });

  it('strips one trailing slash before verification', async () => {
    const res = await ping({ path: `${PING}/`, signedPath: PING });
    expect(res.status).toBe(200);
  });

  const cases: [string, () => Promise<RawResponse>, number, string][] = [
    [
      'wrong secret',
      () => ping({ signingSecret: 'not-the-secret-0123456789' }),
      401,
      'external_auth_signature_invalid',
    ],
    [
      'unknown partner',
      () =>
        signedRequest({
          port: t.port,
          partner: { ...PARTNERS.v2, partnerId: 'nobody' },
          method: 'GET',
          path: PING,
        }),
      401,
      'external_auth_signature_invalid',
    ],
    [
      'signature over another path',
      () => ping({ signedPath: '/api/external/intents/quote' }),
      401,
      'external_auth_signature_invalid',
    ],
    [
      'upper-case hex signature',
      () => ping({ signature: 'A'.repeat(64) }),
      401,
      'external_auth_signature_invalid',
    ],
    [
      'query string',
      () => ping({ path: `${PING}?x=1`, signedPath: PING }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'empty query string',
      () => ping({ path: `${PING}?`, signedPath: PING }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'encoded separator %2F',
      () => ping({ path: '/api/external/attempts/a%2Fb/status' }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'dot segment',
      () => ping({ path: '/api/external/intents/../ping' }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'malformed escape in a path parameter',
      () => ping({ path: '/api/external/attempts/%zz/status' }),
      401,
      'external_auth_request_invalid',
    ],
    ['double slash', () => ping({ path: '/api/external//ping' }), 401, 'external_auth_request_invalid'],
    [
      'duplicated X-Nonce',
      () => ping({ extraHeaders: [['X-Nonce', freshNonce()]] }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'duplicated X-Partner-Id',
      () => ping({ extraHeaders: [['x-partner-id', PARTNERS.v2.partnerId]] }),
      401,
      'external_auth_request_invalid',
    ],
    [
      'timestamp not decimal ms',
      () => ping({ timestamp: '2026-11-21T10:00:00Z' }),
      401,
      'external_auth_timestamp_invalid',
    ],
    [
      'timestamp with a fraction',
      () => ping({ timestamp: '1763720000000.5' }),
      401,
      'external_auth_timestamp_invalid',
    ],
    [
      'timestamp too old',
      () => ping({ timestamp: Date.now() - FIVE_MIN - 10_000 }),
      401,
      'external_auth_timestamp_expired',
    ],
    [
      'timestamp too far ahead',
      () => ping({ timestamp: Date.now() + FIVE_MIN + 10_000 }),
      401,
      'external_auth_timestamp_expired',
    ],
    [
      'nonce too short',
      () => ping({ nonce: 'short-nonce-15ch'.slice(0, 15) }),
      401,
      'external_auth_nonce_invalid',
    ],
    [
      'nonce bad character',
      () => ping({ nonce: 'nonce-with-a-slash/0123' }),
      401,
      'external_auth_nonce_invalid',
    ],
    ['nonce too long', () => ping({ nonce: 'n'.repeat(129) }), 401, 'external_auth_nonce_invalid'],
    ['missing nonce', () => ping({ omit: ['x-nonce'] }), 401, 'external_auth_headers_required'],
    [
      'missing auth version (v2 partner)',
      () => ping({ omit: ['x-service-auth-version'] }),
      401,
      'external_auth_headers_required',
    ],
    ['missing signature', () => ping({ omit: ['x-signature'] }), 401, 'external_auth_headers_required'],
    ['missing timestamp', () => ping({ omit: ['x-timestamp'] }), 401, 'external_auth_headers_required'],
    ['missing partner id', () => ping({ omit: ['x-partner-id'] }), 401, 'external_auth_headers_required'],
    [
      'v2 partner sends version 1 (downgrade)',
      () => ping({ omit: ['x-service-auth-version'], extraHeaders: [['X-Service-Auth-Version', '1']] }),
      401,
      'external_auth_version_mismatch',
    ],
    [
      'v1 partner sends version 2',
      () =>
        signedRequest({
          port: t.port,
          partner: PARTNERS.v1,
          method: 'GET',
          path: PING,
          extraHeaders: [
            ['X-Service-Auth-Version', '2'],
            ['X-Nonce', freshNonce()],
          ],
        }),
      401,
      'external_auth_version_mismatch',
    ],
    [
      'version 3',
      () => ping({ omit: ['x-service-auth-version'], extraHeaders: [['X-Service-Auth-Version', '3']] }),
      401,
      'external_auth_version_mismatch',
    ],
    [
      'disabled partner',
      () => signedRequest({ port: t.port, partner: PARTNERS.disabled, method: 'GET', path: PING }),
      403,
      'partner_disabled',
    ],
    ['GET with a body', () => ping({ body: '{}' }), 400, 'request_body_not_allowed'],
    ['GET with an Idempotency-Key', () => ping({ idempotencyKey: 'k1' }), 400, 'idempotency_key_not_allowed'],
    [
      'Content-Encoding gzip',
      () => ping({ extraHeaders: [['Content-Encoding', 'gzip']] }),
      415,
      'content_encoding_unsupported',
    ],
  ];

  it.each(cases)('rejects %s', async (_name, send, status, code) => {
    const res = await send();
    expect([res.status, res.json?.code]).toEqual([status, code]);
    expect(res.json.apiVersion).toBe('1');
  });

  it('accepts Content-Encoding identity', async () => {
    expect((await ping({ extraHeaders: [['Content-Encoding', 'identity']] })).status).toBe(200);
  });

  it('reveals nothing more for an unknown partner than for a bad signature', async () => {
    const unknown = await signedRequest({
      port: t.port,
      partner: { ...PARTNERS.v2, partnerId: 'nobody' },
      method: 'GET',
      path: PING,
    });
    const bad = await ping({ signingSecret: 'not-the-secret-0123456789' });
    // Each answer names its own request (requestId); nothing else may differ.
    expect({ ...unknown.json, message: undefined, requestId: undefined }).toEqual({
      ...bad.json,
      message: undefined,
      requestId: undefined,
    });
    expect(unknown.json.message).toBe(bad.json.message);
  });

  it('accepts a nonce again only for the identical request tuple, else 409 external_auth_nonce_conflict', async () => {
    const nonce = freshNonce();
    const timestamp = Date.now();
    expect((await ping({ nonce, timestamp })).status).toBe(200);
    expect((await ping({ nonce, timestamp })).status).toBe(200); // the same signed request delivered twice
    const other = await ping({ nonce, timestamp: timestamp + 1 });
    expect([other.status, other.json.code]).toEqual([409, 'external_auth_nonce_conflict']);
  });

  it('passes two v1 GETs signed in the same millisecond on two paths, and each retried as is (security review N-L1)', async () => {
    const timestamp = Date.now();
    const v1 = (o: Partial<Parameters<typeof signedRequest>[0]>) =>
      signedRequest({ port: t.port, partner: PARTNERS.v1, method: 'GET', path: PING, timestamp, ...o });
    const EVENTS = '/api/external/webhooks/events';
    // Both sign `<timestamp>.` only: the same signature. Each is bound with its method, path and key (N-L1).
    const [ping, events] = await Promise.all([v1({}), v1({ path: EVENTS })]);
    expect([ping.status, events.status, events.json.events]).toEqual([200, 200, []]);
    // The same request delivered again passes, as it always did (a retried delivery of the same bytes).
    expect((await v1({})).status).toBe(200);
    expect((await v1({ path: EVENTS })).status).toBe(200);
    // Two POSTs with the same body in the same millisecond, to two routes (or with two keys): neither is a conflict.
    const redeliver = (eventId: string, idempotencyKey: string) =>
      v1({ method: 'POST', path: `/api/external/webhooks/redeliver/${eventId}`, body: {}, idempotencyKey });
    const posts = await Promise.all([
      redeliver('no-such-event-1', 'key-n-l1-a'),
      redeliver('no-such-event-2', 'key-n-l1-b'),
      redeliver('no-such-event-1', 'key-n-l1-c'),
    ]);
    expect(posts.map((r) => [r.status, r.json.code])).toEqual(
      posts.map(() => [404, 'webhook_event_not_found']),
    );
  });

  it('refuses a v1 POST with an empty body: it would sign exactly what a GET does (M4)', async () => {
    const asPrepare = await signedRequest({
      port: t.port,
      partner: PARTNERS.v1,
      method: 'POST',
      path: '/api/external/intents/ses_0000000000000000000000/prepare',
      idempotencyKey: 'key-captured-ping',
    });
    expect([asPrepare.status, asPrepare.json.code]).toEqual([401, 'external_auth_body_required']);
  });

  it('answers an unknown partner and a v1 or v2 partner with a bad signature alike, whatever the version header (M9)', async () => {
    const wrong = 'not-the-secret-0123456789';
    const answers = [];
    for (const version of [undefined, '1', '2']) {
      const extraHeaders: [string, string][] = version ? [['X-Service-Auth-Version', version]] : [];
      const omit = ['x-service-auth-version'];
      for (const partner of [PARTNERS.v1, PARTNERS.v2, { ...PARTNERS.v2, partnerId: 'nobody' }]) {
        const res = await signedRequest({
          port: t.port,
          partner,
          method: 'GET',
          path: PING,
          signingSecret: wrong,
          extraHeaders: [...extraHeaders, ['X-Nonce', freshNonce()]],
          omit: [...omit, 'x-nonce'],
        });
        answers.push([res.status, res.json.code, res.json.message]);
      }
    }
    for (const answer of answers) {
      expect(answer).toEqual([
        401,
        'external_auth_signature_invalid',
        'The signature does not match the request.',
      ]);
    }
  });

  it('binds a nonce per partner: another partner may use the same nonce', async () => {
    const nonce = freshNonce();
    expect((await ping({ nonce })).status).toBe(200);
    expect(
      (await signedRequest({ port: t.port, partner: PARTNERS.other, method: 'GET', path: PING, nonce }))
        .status,
    ).toBe(200);
  });

  it('stores no nonce for a request rejected before authentication completed', async () => {
    const nonce = freshNonce();
    expect((await ping({ nonce, signingSecret: 'not-the-secret-0123456789' })).status).toBe(401);
    expect((await ping({ nonce })).status).toBe(200);
  });

  it('limits a partner to its requests per minute with 429 rate_limited and Retry-After', async () => {
    const send = () => signedRequest({ port: t.port, partner: PARTNERS.limited, method: 'GET', path: PING });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const limited = await send();
    expect([limited.status, limited.json.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('serves unauthenticated health probes outside the API prefix', async () => {
    const health = await rawRequest({ port: t.port, method: 'GET', path: '/healthz' });
    const ready = await rawRequest({ port: t.opsPort, method: 'GET', path: '/readyz' });
    expect([health.status, health.json.status, health.headers['x-service-api-version']]).toEqual([
      200,
      'ok',
      '1',
    ]);
    expect([ready.status, ready.json.status, ready.json.apiVersion]).toEqual([200, 'ready', '1']);
    expect(health.json.apiVersion).toBe('1');
  });

  it('answers 503 not_ready from /readyz when the event store is unreachable', async () => {
    const broken = await startTestApp();
    await broken.store.close();
    const ready = await rawRequest({ port: broken.opsPort, method: 'GET', path: '/readyz' });
    expect([ready.status, ready.json.status, ready.json.apiVersion]).toEqual([503, 'not_ready', '1']);
    await broken.close().catch(() => undefined);
  });
});

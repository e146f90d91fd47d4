import { Controller, Module } from '@nestjs/common';
import { MessagePattern as OnMessage } from '@nestjs/microservices';
import { MessagePattern } from '@svc/messaging';
import { rawRequest, type RawResponse, signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

@Controller()
class ExplodingStatus {
  @OnMessage(MessagePattern.status)
  status(): never {
    throw new Error('boom: secret-v2-0123456789abcdef');
  }
}
@Module({ controllers: [ExplodingStatus] })
class ExplodingModule {}

const validQuote = {
  walletAddress: '0x1111111111111111111111111111111111111111',
  sources: [
    { chainId: 1, address: '0x2222222222222222222222222222222222222222', amount: '1000000', decimals: 6 },
  ],
  target: {
    chainId: 8453,
    address: '0x3333333333333333333333333333333333333333',
    targetToken: { address: '0x3333333333333333333333333333333333333333', decimals: 6 },
  },
};

describe('HTTP error model', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_BODY_BYTES: '2048' } });
  });
  afterAll(async () => t.close());

  const post = (path: string, body: unknown, o: Partial<Parameters<typeof signedRequest>[0]> = {}) =>
    signedRequest({ port: t.port, partner: PARTNERS.v2, method: 'POST', path, body, ...o });

  function expectError(res: RawResponse, status: number, code: string) {
    expect([res.status, res.json?.code]).toEqual([status, code]);
    expect(res.json).toEqual(
      expect.objectContaining({
        apiVersion: '1',
        error: expect.any(String),
        message: expect.any(String),
        path: expect.any(String),
      }),
    );
    expect(res.headers['x-service-api-version']).toBe('1');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  }

  it('404 route_not_found for an unknown path, with the error body and version header', async () => {
    const res = await rawRequest({ port: t.port, method: 'GET', path: '/api/external/nope' });
    expectError(res, 404, 'route_not_found');
    expect(res.json.path).toBe('/api/external/nope');
  });

  it('404 route_not_found for a known route without the /api/external prefix names the path that exists', async () => {
    const ping = await rawRequest({ port: t.port, method: 'GET', path: '/ping' });
    expectError(ping, 404, 'route_not_found');
    expect(ping.json.message).toBe(
      "no endpoint GET /ping: the API's paths start with /api/external (GET /api/external/ping)",
    );
    const quote = await rawRequest({ port: t.port, method: 'GET', path: '/intents/quote' });
    expect(quote.json.message).toMatch(/\(POST \/api\/external\/intents\/quote\)$/);
    const unknown = await rawRequest({ port: t.port, method: 'GET', path: '/nope' });
    expect(unknown.json.message).toBe('no endpoint GET /nope');
  });

  it('405 method_not_allowed with Allow for a known path and another method', async () => {
    const res = await rawRequest({ port: t.port, method: 'DELETE', path: '/api/external/intents/quote' });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers['allow']).toBe('POST');
    const get = await rawRequest({ port: t.port, method: 'POST', path: '/api/external/attempts/a1/status' });
    expectError(get, 405, 'method_not_allowed');
    expect(get.headers['allow']).toBe('GET, HEAD');
  });

  it('413 payload_too_large above MAX_BODY_BYTES, before authentication', async () => {
    const res = await post('/api/external/intents/quote', { pad: 'x'.repeat(4096) });
    expectError(res, 413, 'payload_too_large');
  });

  it('answers HEAD on a GET route with its headers and no body', async () => {
    const res = await rawRequest({ port: t.port, method: 'HEAD', path: '/healthz/' });
    expect([res.status, res.text, res.headers['x-service-api-version']]).toEqual([200, '', '1']);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('415 unsupported_media_type for a POST body that is not application/json', async () => {
    expectError(
      await post('/api/external/intents/quote', validQuote, { contentType: 'text/plain' }),
      415,
      'unsupported_media_type',
    );
  });

  it('415 unsupported_media_type for a Content-Type that is no media type, before authentication', async () => {
    expectError(
      await post('/api/external/intents/quote', validQuote, {
        contentType: 'json',
        signingSecret: 'not-the-secret-0123456789',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts application/json; charset=utf-8', async () => {
    const res = await post('/api/external/intents/quote', validQuote, {
      contentType: 'application/json; charset=utf-8',
    });
    expect([res.status, res.json.quoteStatus]).toEqual([200, 'unavailable']);
  });

  it('400 invalid_json for malformed JSON and for bytes that are not UTF-8', async () => {
    expectError(await post('/api/external/intents/quote', '{"walletAddress":'), 400, 'invalid_json');
    expectError(
      await post('/api/external/intents/quote', Buffer.from([0x7b, 0xff, 0x7d])),
      400,
      'invalid_json',
    );
  });

  it('400 with the first field code and every field in details for an invalid body', async () => {
    const res = await post('/api/external/intents/quote', { ...validQuote, slippageBps: 0, feeBps: '10' });
    expectError(res, 400, 'invalid_slippage_bps');
    expect(res.json.details.map((d: { code: string }) => d.code)).toEqual(
      expect.arrayContaining(['invalid_slippage_bps', 'invalid_fee_bps']),
    );
  });

  it('400 invalid_fee_bps above the partner maximum', async () => {
    expectError(
      await post('/api/external/intents/quote', { ...validQuote, feeBps: 301 }),
      400,
      'invalid_fee_bps',
    );
  });

  it('400 invalid_callback_url when it differs from the configured one', async () => {
    expectError(
      await post('/api/external/intents/quote', { ...validQuote, callbackUrl: 'https://evil.example/hooks' }),
      400,
      'invalid_callback_url',
    );
  });

  it('400 idempotency_key_required / idempotency_key_invalid on POST', async () => {
    expectError(
      await post('/api/external/intents/quote', validQuote, { idempotencyKey: null }),
      400,
      'idempotency_key_required',
    );
    expectError(
      await post('/api/external/intents/quote', validQuote, { idempotencyKey: 'k'.repeat(256) }),
      400,
      'idempotency_key_invalid',
    );
    expect(
      (await post('/api/external/intents/quote', validQuote, { idempotencyKey: 'k'.repeat(255) })).status,
    ).toBe(200);
  });

  it.each([
    [
      'POST',
      '/api/external/attempts/at_1/submitted',
      { chainResults: [{ chainId: 1, txHashes: [`0x${'a'.repeat(64)}`] }] },
    ],
    ['GET', '/api/external/attempts/at_1/status', undefined],
  ])(
    'routes %s %s over the bus to its feature, which answers 404 attempt_not_found for an unknown attempt',
    async (method, path, body) => {
      const res = await signedRequest({ port: t.port, partner: PARTNERS.v2, method, path, body });
      expectError(res, 404, 'attempt_not_found');
    },
  );
});

describe('HTTP error model: unexpected faults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ features: [ExplodingModule] });
  });
  afterAll(async () => t.close());

  it('500 internal_error for an unexpected fault, without stack or secret', async () => {
    const res = await signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'GET',
      path: '/api/external/attempts/a1/status',
    });
    expect([res.status, res.json.code, res.headers['x-service-api-version']]).toEqual([
      500,
      'internal_error',
      '1',
    ]);
    expect(res.text).not.toMatch(/boom|secret|at .*\.ts/);
  });
});

describe('HTTP error model: prepare of an unknown session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('404 intent_session_not_found, before any body error', async () => {
    for (const body of [undefined, { callbackUrl: 'https://evil.example/x' }, []]) {
      const res = await signedRequest({
        port: t.port,
        partner: PARTNERS.v2,
        method: 'POST',
        path: '/api/external/intents/is_1/prepare',
        body,
      });
      expect([res.status, res.json.code, res.headers['x-service-api-version']]).toEqual([
        404,
        'intent_session_not_found',
        '1',
      ]);
    }
  });
});

import { type ErrorCode } from '@svc/contract';
import { sha256Hex } from '../hash/sha256-hex';
import { type AuthRequest } from './auth-types';
import { authenticateRequest } from './authenticate-request';
import {
  auth,
  codeOf,
  NOW,
  signedV1,
  signedV2,
  withDuplicate,
  withHeader,
} from './signed-request.test-helper';

describe('authenticateRequest: success', () => {
  it('accepts a signed v2 POST and returns the canonical path, nonce and tuple hash', () => {
    const result = auth(signedV2());
    expect(result).toEqual({
      ok: true,
      partnerId: 'partner-v2',
      authVersion: 2,
      secret: 'current',
      path: '/api/external/intents/quote',
      nonce: 'nonce-0123456789abcdef',
      requestTupleHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('accepts a v2 GET with no body and no Idempotency-Key', () => {
    const result = auth(signedV2({ method: 'GET', url: '/api/external/ping', body: '', key: '' }));
    expect(result).toMatchObject({ ok: true, path: '/api/external/ping' });
  });

  it('upper-cases the request method before verifying', () => {
    expect(codeOf(signedV2({ method: 'post' }))).toBe('ok');
  });

  it('accepts a v1 POST and binds its signature with method, path and key as the nonce, with a tuple hash (M4, N-L1)', () => {
    const request = signedV1();
    const signature = request.rawHeaders[request.rawHeaders.indexOf('X-Signature') + 1];
    const binding = sha256Hex(
      JSON.stringify(['v1-binding', signature, 'POST', '/api/external/intents/quote', 'key-0001']),
    );
    expect(auth(request)).toEqual({
      ok: true,
      partnerId: 'partner-v1',
      authVersion: 1,
      secret: 'current',
      path: '/api/external/intents/quote',
      nonce: `v1.${binding}`,
      requestTupleHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('binds two v1 requests signed alike in the same millisecond apart: other path, method or key (security review N-L1)', () => {
    const bound = (request: AuthRequest) => {
      const { nonce, requestTupleHash } = auth(request) as { nonce: string; requestTupleHash: string };
      return { nonce, requestTupleHash };
    };
    const signatureOf = (request: AuthRequest) =>
      request.rawHeaders[request.rawHeaders.indexOf('X-Signature') + 1];
    const ping = signedV1({ method: 'GET', url: '/api/external/ping', body: '', key: '' });
    const status = signedV1({ method: 'GET', url: '/api/external/attempts/att_1/status', body: '', key: '' });
    // Same timestamp, same empty body: v1 signs the same bytes, so the two carry the same signature...
    expect(signatureOf(status)).toBe(signatureOf(ping));
    // ...and each is bound on its own: neither is a conflict for the other.
    expect(bound(status).nonce).not.toBe(bound(ping).nonce);
    expect(bound(signedV1({ key: 'key-0002' })).nonce).not.toBe(bound(signedV1()).nonce);
    expect(bound(signedV1({ url: '/api/external/intents/ses_1/prepare' })).nonce).not.toBe(
      bound(signedV1()).nonce,
    );
    // The same request again is the same binding and tuple: a retry passes.
    expect(bound(signedV1())).toEqual(bound(signedV1()));
    for (const request of [ping, status, signedV1()])
      expect(bound(request).nonce).toMatch(/^v1\.[0-9a-f]{64}$/);
  });

  it('refuses a v1 POST with an empty body: its signature is a GET signature (M4)', () => {
    const empty = signedV1({ body: '', url: '/api/external/intents/ses_1/prepare' });
    expect(codeOf(empty)).toBe('external_auth_body_required');
    expect(codeOf(signedV1({ body: '{}', url: '/api/external/intents/ses_1/prepare' }))).toBe('ok');
    // Only a caller holding the secret learns it: a bad signature on the same request stays a bad signature.
    expect(codeOf(signedV1({ body: '', secret: 'nope' }))).toBe('external_auth_signature_invalid');
  });

  it('ties the tuple hash to the whole request: a different nonce, key or body gives another hash', () => {
    const hashOf = (request: AuthRequest) => (auth(request) as { requestTupleHash: string }).requestTupleHash;
    const base = hashOf(signedV2());
    expect(hashOf(signedV2())).toBe(base);
    expect(hashOf(signedV2({ nonce: 'nonce-0123456789abcdeX' }))).not.toBe(base);
    expect(hashOf(signedV2({ key: 'key-0002' }))).not.toBe(base);
    expect(hashOf(signedV2({ body: '{}' }))).not.toBe(base);
  });
});

describe('authenticateRequest: openssl vectors', () => {
  // See signing.spec.ts for the openssl commands; partner-a's secret is 'test-secret-0123456789'.
  const partnerA = (authVersion: 1 | 2) => () => ({
    partnerId: 'partner-a',
    secret: 'test-secret-0123456789',
    authVersion,
  });
  const BODY =
    '{"walletAddress":"0x1111111111111111111111111111111111111111","sources":[{"chainId":1,"address":"0x0000000000000000000000000000000000000000","amount":"1000","decimals":18}]}';
  const v2Headers = (signature: string) => [
    'X-Partner-Id',
    'partner-a',
    'X-Timestamp',
    '1767225600000',
    'X-Service-Auth-Version',
    '2',
    'X-Nonce',
    'n0nce-abcdef-0123456789',
    'X-Signature',
    signature,
  ];

  it('verifies the GET vector and reports the openssl tuple hash', () => {
    // printf '%s' "$STR" | openssl dgst -sha256   (STR = the GET signing string of signing.spec.ts)
    const request = {
      method: 'GET',
      rawUrl: '/api/external/ping',
      rawHeaders: v2Headers('a94407869a76d26193f46f605d2a3a116af9909cb3f999d98ad2edc4f8f8f5c1'),
      body: Buffer.alloc(0),
    };
    expect(authenticateRequest(request, partnerA(2), NOW)).toMatchObject({
      ok: true,
      requestTupleHash: '06f75327d75d83d7e976ff36b0c336be3aac6c8da6d8585f3da02a9648b650ba',
    });
  });

  it('verifies the POST vector and reports the openssl tuple hash', () => {
    // printf '%s' "$STR" | openssl dgst -sha256   (STR = the POST signing string of signing.spec.ts)
    const request = {
      method: 'POST',
      rawUrl: '/api/external/intents/quote',
      rawHeaders: [
        ...v2Headers('c1d7248fc35958f17382418a5e9b32ef46201a45bf4deaa94bdada9db2818227'),
        'Idempotency-Key',
        'quote-key-0001',
      ],
      body: Buffer.from(BODY),
    };
    expect(authenticateRequest(request, partnerA(2), NOW)).toMatchObject({
      ok: true,
      requestTupleHash: '1d8bed428c6bb0b2d96cf059d860430d1fe1fa0363849ebeb8c684e107c7f9e7',
    });
  });

  it('verifies the v1 vector', () => {
    const request = {
      method: 'POST',
      rawUrl: '/api/external/intents/quote',
      rawHeaders: [
        'X-Partner-Id',
        'partner-a',
        'X-Timestamp',
        '1767225600000',
        'X-Signature',
        'ea2a01742f3cfd48c12bd7a8b3b82ee003acbcb91f0f01740b032ac08671906b',
      ],
      body: Buffer.from(BODY),
    };
    expect(authenticateRequest(request, partnerA(1), NOW)).toMatchObject({ ok: true, authVersion: 1 });
  });
});

describe('authenticateRequest: order of checks', () => {
  it.each<[string, AuthRequest, ErrorCode]>([
    [
      'duplicate header before path',
      { ...withDuplicate(signedV2(), 'x-nonce', 'n'), rawUrl: '/a?b' },
      'external_auth_request_invalid',
    ],
    [
      'path before partner id',
      { ...withHeader(signedV2(), 'X-Partner-Id', undefined), rawUrl: '/a?b' },
      'external_auth_request_invalid',
    ],
    [
      'partner id before version',
      withHeader(withHeader(signedV2(), 'X-Partner-Id', undefined), 'X-Service-Auth-Version', '9'),
      'external_auth_headers_required',
    ],
    [
      'a version that exists for nobody before timestamp',
      withHeader(signedV2({ timestamp: 'x' }), 'X-Service-Auth-Version', '9'),
      'external_auth_version_mismatch',
    ],
    [
      'timestamp before the partner-dependent version check (M9)',
      withHeader(signedV2({ timestamp: 'x' }), 'X-Service-Auth-Version', '1'),
      'external_auth_timestamp_invalid',
    ],
    [
      'timestamp format before nonce',
      signedV2({ timestamp: 'x', nonce: 'short' }),
      'external_auth_timestamp_invalid',
    ],
    [
      'timestamp skew before nonce',
      signedV2({ timestamp: '1', nonce: 'short' }),
      'external_auth_timestamp_expired',
    ],
    [
      'signature presence before timestamp format',
      withHeader(signedV2({ timestamp: 'x' }), 'X-Signature', undefined),
      'external_auth_headers_required',
    ],
    [
      'nonce before signature',
      withHeader(signedV2({ nonce: 'short' }), 'X-Signature', 'bad'),
      'external_auth_nonce_invalid',
    ],
  ])('%s', (_label, request, code) => {
    expect(codeOf(request)).toBe(code);
  });
});

import { type ErrorCode } from '@svc/contract';
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

  it('accepts a v1 POST with nulls for nonce and tuple hash', () => {
    expect(auth(signedV1())).toEqual({
      ok: true,
      partnerId: 'partner-v1',
      authVersion: 1,
      path: '/api/external/intents/quote',
      nonce: null,
      requestTupleHash: null,
    });
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
      'version before timestamp',
      withHeader(signedV2({ timestamp: 'x' }), 'X-Service-Auth-Version', '1'),
      'external_auth_version_mismatch',
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

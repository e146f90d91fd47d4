import { type ErrorCode, PROTECTED_HEADERS } from '@svc/contract';
import { type AuthRequest } from './auth-types';
import {
  auth,
  codeOf,
  LONG_ID,
  NOW,
  signedV1,
  signedV2,
  V1_SECRET,
  V2_SECRET,
  withDuplicate,
  withHeader,
} from './signed-request.test-helper';

describe('authenticateRequest: 1. duplicated protected headers', () => {
  it.each(PROTECTED_HEADERS.map((name) => [name]))('rejects a second %s, naming it', (name) => {
    const base = signedV2();
    const once = base.rawHeaders.some((h) => h.toLowerCase() === name)
      ? base
      : withHeader(base, name, 'identity');
    const result = auth(withDuplicate(once, name, 'identity'));
    expect(result).toEqual({
      ok: false,
      code: 'external_auth_request_invalid',
      message: expect.stringContaining(name),
    });
  });

  it('allows duplicates of headers that are not protected', () => {
    expect(codeOf(withDuplicate(withHeader(signedV2(), 'Accept', 'a'), 'Accept', 'b'))).toBe('ok');
  });
});

describe('authenticateRequest: 2. request path', () => {
  it.each([
    '/api/external/intents/quote?',
    '/api/external/intents/quote?x=1',
    '/api/external/intents/quote#f',
    '/api/external/intents%2Fquote',
    '/api/external/intents%2fquote',
    '/api/external/intents%5Cquote',
    '/api/external/%2E/intents/quote',
    '/api/external/intents\\quote',
    '/api/external/./intents/quote',
    '/api/external/x/../intents/quote',
    '/api/external/intents/quote/.',
    '/api/external/intents/quote/..',
    '/api/external//intents/quote',
    '/api/external/intents/quote//',
    'api/external/intents/quote',
  ])('rejects %j even when it is what was signed', (url) => {
    expect(codeOf(signedV2({ url }))).toBe('external_auth_request_invalid');
  });

  it('strips one trailing slash: the canonical path is what must be signed', () => {
    const url = '/api/external/intents/quote/';
    expect(auth(signedV2({ url, signedPath: '/api/external/intents/quote' }))).toMatchObject({
      ok: true,
      path: '/api/external/intents/quote',
    });
    expect(codeOf(signedV2({ url }))).toBe('external_auth_signature_invalid');
  });
});

describe('authenticateRequest: 3. partner id', () => {
  it.each<[string, string | undefined, ErrorCode]>([
    ['missing', undefined, 'external_auth_headers_required'],
    ['empty', '', 'external_auth_headers_required'],
    ['blank', '   ', 'external_auth_headers_required'],
    ['65 characters', 'p'.repeat(65), 'external_auth_signature_invalid'],
    ['unknown', 'partner-zz', 'external_auth_signature_invalid'],
    ['a known id in another case', 'PARTNER-V2', 'external_auth_signature_invalid'],
  ])('%s → %s', (_label, value, code) => {
    expect(codeOf(withHeader(signedV2(), 'X-Partner-Id', value))).toBe(code);
  });

  it('accepts a 64-character id and trims surrounding spaces before signing and lookup', () => {
    expect(codeOf(signedV2({ partnerId: LONG_ID }))).toBe('ok');
    expect(codeOf(withHeader(signedV2(), 'X-Partner-Id', ' partner-v2 '))).toBe('ok');
  });

  it('gives a 65-character id, even fully signed, nothing more than a bad signature', () => {
    expect(codeOf(signedV2({ partnerId: 'p'.repeat(65) }))).toBe('external_auth_signature_invalid');
  });
});

describe('authenticateRequest: 4. unknown partner', () => {
  const unknownV2 = (change = {}) => signedV2({ partnerId: 'partner-zz', ...change });

  it('ends in a bad signature even when every header is well formed', () => {
    expect(auth(unknownV2())).toEqual({
      ok: false,
      code: 'external_auth_signature_invalid',
      message: 'The signature does not match the request.',
    });
    expect(codeOf(signedV1({ partnerId: 'partner-zz' }))).toBe('external_auth_signature_invalid');
  });

  it('gives the same message as a wrong secret for a known partner', () => {
    const wrongSecret = auth(signedV2({ secret: 'nope' }));
    const unknown = auth(unknownV2());
    expect(unknown).toEqual(wrongSecret);
  });

  it('never accepts a request signed with the decoy key that unknown ids are checked against', () => {
    expect(codeOf(unknownV2({ secret: 'unknown-partner-decoy-secret' }))).toBe(
      'external_auth_signature_invalid',
    );
  });

  it.each<[string, AuthRequest, ErrorCode]>([
    [
      'v2 rules with a version header: nonce required',
      withHeader(unknownV2(), 'X-Nonce', undefined),
      'external_auth_headers_required',
    ],
    [
      'v2 rules with a version header: nonce format',
      unknownV2({ nonce: 'short' }),
      'external_auth_nonce_invalid',
    ],
    [
      'v1 rules without it: no nonce needed',
      withHeader(withHeader(unknownV2(), 'X-Nonce', undefined), 'X-Service-Auth-Version', undefined),
      'external_auth_signature_invalid',
    ],
    [
      'a version that exists for nobody',
      withHeader(unknownV2(), 'X-Service-Auth-Version', '3'),
      'external_auth_version_mismatch',
    ],
    ['timestamp format', unknownV2({ timestamp: 'yesterday' }), 'external_auth_timestamp_invalid'],
    ['timestamp skew', unknownV2({ timestamp: String(NOW - 300_001) }), 'external_auth_timestamp_expired'],
    [
      'signature required',
      withHeader(unknownV2(), 'X-Signature', undefined),
      'external_auth_headers_required',
    ],
  ])('still runs the partner-independent checks: %s', (_label, request, code) => {
    expect(codeOf(request)).toBe(code);
  });
});

describe('authenticateRequest: 5. auth version header', () => {
  it.each<[string, AuthRequest, ErrorCode | 'ok']>([
    ['v2 partner, header 2', signedV2(), 'ok'],
    [
      'v2 partner, header missing',
      withHeader(signedV2(), 'X-Service-Auth-Version', undefined),
      'external_auth_headers_required',
    ],
    [
      'v2 partner, header empty',
      withHeader(signedV2(), 'X-Service-Auth-Version', ''),
      'external_auth_headers_required',
    ],
    [
      'v2 partner, header 1 (downgrade)',
      withHeader(signedV2(), 'X-Service-Auth-Version', '1'),
      'external_auth_version_mismatch',
    ],
    [
      'v2 partner, header 3',
      withHeader(signedV2(), 'X-Service-Auth-Version', '3'),
      'external_auth_version_mismatch',
    ],
    [
      'v2 partner, header 02',
      withHeader(signedV2(), 'X-Service-Auth-Version', '02'),
      'external_auth_version_mismatch',
    ],
    [
      'v2 partner, header v2',
      withHeader(signedV2(), 'X-Service-Auth-Version', 'v2'),
      'external_auth_version_mismatch',
    ],
    [
      'v2 partner, header "2, 2"',
      withHeader(signedV2(), 'X-Service-Auth-Version', '2, 2'),
      'external_auth_version_mismatch',
    ],
    ['v1 partner, header omitted', signedV1(), 'ok'],
    ['v1 partner, header 1', withHeader(signedV1(), 'X-Service-Auth-Version', '1'), 'ok'],
    [
      'v1 partner, header 2 without a nonce (the claim of v2 asks for one, whoever the partner is)',
      withHeader(signedV1(), 'X-Service-Auth-Version', '2'),
      'external_auth_headers_required',
    ],
    [
      'v1 partner, header 2 and a nonce, v1 signature (no upgrade by header)',
      withHeader(withHeader(signedV1(), 'X-Service-Auth-Version', '2'), 'X-Nonce', 'nonce-0123456789abcdef'),
      'external_auth_version_mismatch',
    ],
    [
      'v2 partner signing the legacy way (v1 signature, no version header, no nonce)',
      signedV1({ partnerId: 'partner-v2', secret: V2_SECRET }),
      'external_auth_headers_required',
    ],
    [
      'v2 partner signing the legacy way with a nonce but no version header',
      withHeader(
        signedV1({ partnerId: 'partner-v2', secret: V2_SECRET }),
        'X-Nonce',
        'nonce-0123456789abcdef',
      ),
      'external_auth_headers_required',
    ],
    [
      'v2 partner signing the legacy way, a wrong secret',
      signedV1({ partnerId: 'partner-v2', secret: 'wrong' }),
      'external_auth_signature_invalid',
    ],
    [
      'v1 partner sending a fully v2-signed request',
      signedV2({ partnerId: 'partner-v1', secret: V1_SECRET }),
      'external_auth_version_mismatch',
    ],
  ])('%s → %s', (_label, request, code) => {
    expect(codeOf(request)).toBe(code);
  });
});

describe('authenticateRequest: M9, an unknown partner answers like a known one with a bad signature', () => {
  // Every combination of version header and nonce a caller can send, with a signature made by the wrong key.
  const headerStates: [string, string | undefined, string | undefined][] = [
    ['no version header, no nonce', undefined, undefined],
    ['no version header, a nonce', undefined, 'nonce-0123456789abcdef'],
    ['header 1, no nonce', '1', undefined],
    ['header 1, a nonce', '1', 'nonce-0123456789abcdef'],
    ['header 2, a nonce', '2', 'nonce-0123456789abcdef'],
  ];
  const variant = (base: AuthRequest, version: string | undefined, nonce: string | undefined) =>
    withHeader(withHeader(base, 'X-Service-Auth-Version', version), 'X-Nonce', nonce);

  it.each(headerStates)(
    '%s: v2 partner, v1 partner and unknown id get the same answer',
    (_l, version, nonce) => {
      const answers = [
        auth(variant(signedV2({ secret: 'wrong' }), version, nonce)),
        auth(variant(signedV1({ secret: 'wrong' }), version, nonce)),
        auth(variant(signedV2({ partnerId: 'partner-zz', secret: 'wrong' }), version, nonce)),
        auth(variant(signedV1({ partnerId: 'partner-zz', secret: 'wrong' }), version, nonce)),
      ];
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      expect(answers[0]).toMatchObject({ ok: false, code: 'external_auth_signature_invalid' });
    },
  );

  it('tells the configured version only to a caller whose signature verifies', () => {
    const v2NoHeader = withHeader(signedV2(), 'X-Service-Auth-Version', undefined);
    expect(codeOf(v2NoHeader)).toBe('external_auth_headers_required');
    expect(codeOf(withHeader(signedV2({ secret: 'wrong' }), 'X-Service-Auth-Version', undefined))).toBe(
      'external_auth_signature_invalid',
    );
    expect(
      codeOf(withHeader(signedV2({ partnerId: 'partner-zz' }), 'X-Service-Auth-Version', undefined)),
    ).toBe('external_auth_signature_invalid');
  });
});

import { type AuthRequest } from './auth-types';
import {
  codeOf,
  LONG_ID,
  NOW,
  signedV1,
  signedV2,
  V2_SECRET,
  withHeader,
} from './signed-request.test-helper';

describe('authenticateRequest: 8. signature', () => {
  const good = signedV2();
  const sig = good.rawHeaders[good.rawHeaders.indexOf('X-Signature') + 1];

  it.each<[string, AuthRequest]>([
    ['upper-case hex of the right value', withHeader(good, 'X-Signature', sig.toUpperCase())],
    ['63 hex digits', withHeader(good, 'X-Signature', sig.slice(0, 63))],
    ['65 hex digits', withHeader(good, 'X-Signature', `${sig}0`)],
    ['not hex', withHeader(good, 'X-Signature', 'g'.repeat(64))],
    [
      'a v1 signature from a v2 partner',
      withHeader(good, 'X-Signature', signedV1({ secret: V2_SECRET }).rawHeaders[5]),
    ],
    ['the wrong secret', signedV2({ secret: 'wrong' })],
    [
      'a body changed by one byte',
      { ...good, body: Buffer.from(good.body.toString().replace('1111', '1112')) },
    ],
    ['a body with a trailing newline', { ...good, body: Buffer.concat([good.body, Buffer.from('\n')]) }],
    ['another method', { ...good, method: 'PUT' }],
    ['another path', { ...good, rawUrl: '/api/external/intents/other' }],
    ['another Idempotency-Key', withHeader(good, 'Idempotency-Key', 'key-0002')],
    ['the Idempotency-Key removed', withHeader(good, 'Idempotency-Key', undefined)],
    ['another timestamp in the window', withHeader(good, 'X-Timestamp', String(NOW + 1))],
    ['another nonce', withHeader(good, 'X-Nonce', 'nonce-0123456789abcdeX')],
    ['another known partner with the same secret', withHeader(good, 'X-Partner-Id', LONG_ID)],
    [
      'an Idempotency-Key added to a GET signed without one',
      withHeader(
        signedV2({ method: 'GET', url: '/api/external/ping', body: '', key: '' }),
        'Idempotency-Key',
        'k',
      ),
    ],
  ])('rejects %s', (_label, request) => {
    expect(codeOf(request)).toBe('external_auth_signature_invalid');
  });

  it.each<[string, AuthRequest]>([
    ['the wrong secret', signedV1({ secret: 'wrong' })],
    ['a changed body', { ...signedV1(), body: Buffer.from('{}') }],
    ['another timestamp in the window', withHeader(signedV1(), 'X-Timestamp', String(NOW - 1))],
  ])('rejects a v1 request with %s', (_label, request) => {
    expect(codeOf(request)).toBe('external_auth_signature_invalid');
  });

  it('hashes the exact raw bytes, including bytes that are not valid UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const asText = signedV2({ body: bytes.toString('latin1') });
    expect(codeOf({ ...asText, body: bytes })).toBe('external_auth_signature_invalid');
  });
});

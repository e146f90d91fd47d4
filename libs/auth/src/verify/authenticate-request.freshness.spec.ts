import { type ErrorCode } from '@svc/contract';
import { type AuthRequest } from './auth-types';
import { auth, codeOf, NOW, signedV1, signedV2, withHeader } from './signed-request.test-helper';

describe('authenticateRequest: 6. timestamp and signature presence, timestamp format and skew', () => {
  it.each<[string, AuthRequest, ErrorCode]>([
    [
      'X-Timestamp missing',
      withHeader(signedV2(), 'X-Timestamp', undefined),
      'external_auth_headers_required',
    ],
    ['X-Timestamp empty', withHeader(signedV2(), 'X-Timestamp', ''), 'external_auth_headers_required'],
    [
      'X-Signature missing',
      withHeader(signedV2(), 'X-Signature', undefined),
      'external_auth_headers_required',
    ],
    [
      'X-Signature missing (v1)',
      withHeader(signedV1(), 'X-Signature', undefined),
      'external_auth_headers_required',
    ],
    [
      'X-Timestamp missing (v1)',
      withHeader(signedV1(), 'X-Timestamp', undefined),
      'external_auth_headers_required',
    ],
  ])('%s → %s', (_label, request, code) => {
    expect(codeOf(request)).toBe(code);
  });

  it.each([
    'abc',
    '-1767225600000',
    '+1767225600000',
    '1767225600000.0',
    '1.7672256e12',
    '0x19B',
    ' 1767225600000x',
    '12345678901234567',
    '１２３',
  ])('timestamp %j → external_auth_timestamp_invalid', (timestamp) => {
    expect(codeOf(signedV2({ timestamp }))).toBe('external_auth_timestamp_invalid');
    expect(codeOf(signedV1({ timestamp }))).toBe('external_auth_timestamp_invalid');
  });

  it.each<[string, number, ErrorCode | 'ok']>([
    ['exactly 5 minutes old', NOW - 300_000, 'ok'],
    ['exactly 5 minutes ahead', NOW + 300_000, 'ok'],
    ['5 minutes and 1 ms old', NOW - 300_001, 'external_auth_timestamp_expired'],
    ['5 minutes and 1 ms ahead', NOW + 300_001, 'external_auth_timestamp_expired'],
    ['epoch zero', 0, 'external_auth_timestamp_expired'],
  ])('%s → %s', (_label, ts, code) => {
    expect(codeOf(signedV2({ timestamp: String(ts) }))).toBe(code);
    expect(codeOf(signedV1({ timestamp: String(ts) }))).toBe(code);
  });

  it('accepts leading zeros (still decimal) when they were signed', () => {
    expect(codeOf(signedV2({ timestamp: `0${NOW}` }))).toBe('ok');
  });
});

describe('authenticateRequest: 7. nonce (v2 only)', () => {
  it.each<[string, string | undefined, ErrorCode | 'ok']>([
    ['missing', undefined, 'external_auth_headers_required'],
    ['empty', '', 'external_auth_headers_required'],
    ['15 characters', 'a'.repeat(15), 'external_auth_nonce_invalid'],
    ['129 characters', 'a'.repeat(129), 'external_auth_nonce_invalid'],
    ['a slash', 'abcdefgh/abcdefgh', 'external_auth_nonce_invalid'],
    ['a plus (base64, not base64url)', 'abcdefgh+abcdefgh', 'external_auth_nonce_invalid'],
    ['padding', 'abcdefghabcdefgh==', 'external_auth_nonce_invalid'],
    ['a space', 'abcdefgh abcdefgh', 'external_auth_nonce_invalid'],
    ['non-ASCII', 'abcdefghabcdefgé', 'external_auth_nonce_invalid'],
    ['16 characters', 'a'.repeat(16), 'ok'],
    ['128 characters', 'a'.repeat(128), 'ok'],
    ['every allowed punctuation', 'AZaz09._~-AZaz09._~-', 'ok'],
  ])('%s → %s', (_label, nonce, code) => {
    const request = nonce === undefined ? withHeader(signedV2(), 'X-Nonce', undefined) : signedV2({ nonce });
    expect(codeOf(request)).toBe(code);
  });

  it('ignores X-Nonce for a v1 partner: what it binds is its signature', () => {
    expect(auth(withHeader(signedV1(), 'X-Nonce', 'x'))).toMatchObject({
      ok: true,
      nonce: expect.stringMatching(/^v1\.[0-9a-f]{64}$/),
    });
  });
});

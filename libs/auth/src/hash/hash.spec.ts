import { EMPTY_BODY_SHA256, sha256Hex } from './sha256-hex';
import { hmacSha256Hex } from './hmac-sha256-hex';
import { timingSafeEqualHex } from './timing-safe-equal-hex';

// Vectors computed with openssl 3.0, independently of this code:
//   printf '' | openssl dgst -sha256
//   printf '%s' '{"symbol":"€"}' | openssl dgst -sha256                      (UTF-8: e2 82 ac for €)
//   printf '%s' '1767225600000.' | openssl dgst -sha256 -hmac 'test-secret-0123456789'
const SHA256_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHA256_EURO_JSON = '89943ebe78f5f61eb3c2c8d9f52746862975ede40b22d3de172af11ae37b29c6';
const HMAC_TIMESTAMP_DOT = 'baa7aad236db8d0255a481ea5c99a272e6faab88347aadab285cc7b777f79a67';

describe('sha256Hex', () => {
  it.each([
    ['an empty string', ''],
    ['an empty buffer', Buffer.alloc(0)],
  ])('hashes %s as zero bytes', (_label, input) => {
    expect(sha256Hex(input)).toBe(SHA256_EMPTY);
    expect(EMPTY_BODY_SHA256).toBe(SHA256_EMPTY);
  });

  it('hashes a string as its UTF-8 bytes, the same as the buffer of those bytes', () => {
    const bytes = Buffer.from([
      0x7b, 0x22, 0x73, 0x79, 0x6d, 0x62, 0x6f, 0x6c, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0xac, 0x22, 0x7d,
    ]);
    expect(sha256Hex('{"symbol":"€"}')).toBe(SHA256_EURO_JSON);
    expect(sha256Hex(bytes)).toBe(SHA256_EURO_JSON);
  });
});

describe('hmacSha256Hex', () => {
  it('matches openssl for a string and for a buffer', () => {
    expect(hmacSha256Hex('test-secret-0123456789', '1767225600000.')).toBe(HMAC_TIMESTAMP_DOT);
    expect(hmacSha256Hex(Buffer.from('test-secret-0123456789'), Buffer.from('1767225600000.'))).toBe(
      HMAC_TIMESTAMP_DOT,
    );
  });
});

describe('timingSafeEqualHex', () => {
  it.each<[string, string, string, boolean]>([
    ['equal digests', SHA256_EMPTY, SHA256_EMPTY, true],
    ['digits compared by value, whatever the case', 'ABcd', 'abCD', true],
    ['one differing byte', SHA256_EMPTY, SHA256_EMPTY.slice(0, -2) + '00', false],
    ['a length mismatch', SHA256_EMPTY, SHA256_EMPTY.slice(0, -2), false],
    ['non-hex characters of the right length', SHA256_EMPTY, 'z'.repeat(64), false],
    ['an odd number of digits', 'abc', 'abc', false],
    ['empty strings (not a digest)', '', '', false],
    ['surrounding whitespace', ' ab', ' ab', false],
  ])('%s', (_label, a, b, expected) => {
    expect(timingSafeEqualHex(a, b)).toBe(expected);
  });

  it('returns false instead of throwing for values that are not strings', () => {
    expect(timingSafeEqualHex(undefined as unknown as string, 'ab')).toBe(false);
    expect(timingSafeEqualHex('ab', 171 as unknown as string)).toBe(false);
  });
});

import { buildSigningStringV2, type SigningPartsV2 } from './signing-string-v2';
import { signRequestV1 } from './sign-request-v1';
import { signRequestV2 } from './sign-request-v2';
import { signWebhook } from './sign-webhook';

// Every expected value below was computed with openssl 3.0 in a shell, not with this code. Shared inputs:
//   SECRET='test-secret-0123456789'
//   BODY='{"walletAddress":"0x1111111111111111111111111111111111111111","sources":[{"chainId":1,"address":"0x0000000000000000000000000000000000000000","amount":"1000","decimals":18}]}'
const SECRET = 'test-secret-0123456789';
const BODY =
  '{"walletAddress":"0x1111111111111111111111111111111111111111","sources":[{"chainId":1,"address":"0x0000000000000000000000000000000000000000","amount":"1000","decimals":18}]}';
const TIMESTAMP = '1767225600000';
const NONCE = 'n0nce-abcdef-0123456789';

// printf '' | openssl dgst -sha256
const SHA256_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
// printf '%s' "$BODY" | openssl dgst -sha256
const SHA256_BODY = '9cb3ecb4de2d0a3389f1663cb11af7991537a29d737f83558245da8d815ffd32';

const getParts: SigningPartsV2 = {
  partnerId: 'partner-a',
  timestamp: TIMESTAMP,
  nonce: NONCE,
  method: 'GET',
  path: '/api/external/ping',
  idempotencyKey: '',
  bodySha256: SHA256_EMPTY,
};
const GET_SIGNING_STRING = [
  'SERVICE-EXTERNAL-REQUEST',
  'auth-version:2',
  'api-version:1',
  'partner-id:partner-a',
  'timestamp:1767225600000',
  'nonce:n0nce-abcdef-0123456789',
  'method:GET',
  'path:/api/external/ping',
  'idempotency-key:',
  'body-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
].join('\n');
// STR=$(printf 'SERVICE-EXTERNAL-REQUEST\nauth-version:2\napi-version:1\npartner-id:partner-a\ntimestamp:1767225600000\nnonce:n0nce-abcdef-0123456789\nmethod:GET\npath:/api/external/ping\nidempotency-key:\nbody-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
// printf '%s' "$STR" | openssl dgst -sha256 -hmac "$SECRET"
const GET_SIGNATURE = 'a94407869a76d26193f46f605d2a3a116af9909cb3f999d98ad2edc4f8f8f5c1';

const postParts: SigningPartsV2 = {
  partnerId: 'partner-a',
  timestamp: TIMESTAMP,
  nonce: NONCE,
  method: 'POST',
  path: '/api/external/intents/quote',
  idempotencyKey: 'quote-key-0001',
  bodySha256: SHA256_BODY,
};
// STR=$(printf 'SERVICE-EXTERNAL-REQUEST\nauth-version:2\napi-version:1\npartner-id:partner-a\ntimestamp:1767225600000\nnonce:n0nce-abcdef-0123456789\nmethod:POST\npath:/api/external/intents/quote\nidempotency-key:quote-key-0001\nbody-sha256:9cb3ecb4de2d0a3389f1663cb11af7991537a29d737f83558245da8d815ffd32')
// printf '%s' "$STR" | openssl dgst -sha256 -hmac "$SECRET"
const POST_SIGNATURE = 'c1d7248fc35958f17382418a5e9b32ef46201a45bf4deaa94bdada9db2818227';

// printf '%s' "1767225600000.$BODY" | openssl dgst -sha256 -hmac "$SECRET"
const V1_SIGNATURE = 'ea2a01742f3cfd48c12bd7a8b3b82ee003acbcb91f0f01740b032ac08671906b';
// printf '%s' '1767225600000.' | openssl dgst -sha256 -hmac "$SECRET"
const V1_EMPTY_BODY_SIGNATURE = 'baa7aad236db8d0255a481ea5c99a272e6faab88347aadab285cc7b777f79a67';

// WH='{"eventId":"evt_0001","event":"settled","attemptId":"att_1","partnerId":"partner-a"}'
// printf '%s' "1767225600000.$WH" | openssl dgst -sha256 -hmac 'whsec-partner-a'
const WEBHOOK_BODY = '{"eventId":"evt_0001","event":"settled","attemptId":"att_1","partnerId":"partner-a"}';
const WEBHOOK_SIGNATURE = '4032e1a55b08b0671444952462e1be6bcd82bca10c8710ea2e4024dc9b44e8e2';

describe('buildSigningStringV2', () => {
  it('joins the ten spec lines with LF, empty idempotency key for GET, no trailing newline', () => {
    const text = buildSigningStringV2(getParts);
    expect(text).toBe(GET_SIGNING_STRING);
    expect(text.split('\n')).toHaveLength(10);
    expect(text.endsWith('\n')).toBe(false);
  });

  it('upper-cases the method and accepts a numeric timestamp', () => {
    expect(buildSigningStringV2({ ...getParts, method: 'get', timestamp: 1767225600000 })).toBe(
      GET_SIGNING_STRING,
    );
  });
});

describe('signRequestV2', () => {
  it('signs a GET (empty key, SHA-256 of zero bytes) as openssl does', () => {
    expect(signRequestV2(SECRET, getParts)).toBe(GET_SIGNATURE);
  });

  it('signs a POST with a JSON body as openssl does', () => {
    expect(signRequestV2(SECRET, postParts)).toBe(POST_SIGNATURE);
  });

  it.each<[string, Partial<SigningPartsV2>]>([
    ['partner id', { partnerId: 'partner-b' }],
    ['timestamp', { timestamp: '1767225600001' }],
    ['nonce', { nonce: 'n0nce-abcdef-0123456780' }],
    ['method', { method: 'PUT' }],
    ['path', { path: '/api/external/intents/quote/' }],
    ['idempotency key', { idempotencyKey: 'quote-key-0002' }],
    ['body hash', { bodySha256: SHA256_EMPTY }],
  ])('changes when the %s changes', (_field, change) => {
    expect(signRequestV2(SECRET, { ...postParts, ...change })).not.toBe(POST_SIGNATURE);
  });
});

describe('signRequestV1', () => {
  it('signs <timestamp>.<raw body> as openssl does, from a string or the same bytes', () => {
    expect(signRequestV1(SECRET, TIMESTAMP, BODY)).toBe(V1_SIGNATURE);
    expect(signRequestV1(SECRET, 1767225600000, Buffer.from(BODY))).toBe(V1_SIGNATURE);
  });

  it('signs an empty body as <timestamp>.', () => {
    expect(signRequestV1(SECRET, TIMESTAMP, Buffer.alloc(0))).toBe(V1_EMPTY_BODY_SIGNATURE);
  });
});

describe('signWebhook', () => {
  it('signs <timestamp>.<raw JSON body> as openssl does', () => {
    expect(signWebhook('whsec-partner-a', TIMESTAMP, WEBHOOK_BODY)).toBe(WEBHOOK_SIGNATURE);
    expect(signWebhook('whsec-partner-a', TIMESTAMP, Buffer.from(WEBHOOK_BODY))).toBe(WEBHOOK_SIGNATURE);
  });
});

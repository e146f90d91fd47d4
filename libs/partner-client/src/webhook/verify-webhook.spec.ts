import { signWebhook } from '@svc/auth';
import { verifyWebhook, type WebhookRejection } from './verify-webhook';

// Vector computed with openssl, independently of libs/auth:
//   WH='{"eventId":"evt_0001","event":"settled","attemptId":"att_1","partnerId":"partner-a"}'
//   printf '%s' "1767225600000.$WH" | openssl dgst -sha256 -hmac 'whsec-partner-a'
const BODY = '{"eventId":"evt_0001","event":"settled","attemptId":"att_1","partnerId":"partner-a"}';
const SIGNATURE = '4032e1a55b08b0671444952462e1be6bcd82bca10c8710ea2e4024dc9b44e8e2';
const TIMESTAMP = '1767225600000';
const NOW = 1767225600000;
const options = { partnerId: 'partner-a', secret: 'whsec-partner-a', nowMs: NOW };
const headers = {
  'x-partner-id': 'partner-a',
  'x-timestamp': TIMESTAMP,
  'x-signature': SIGNATURE,
  'x-service-event-id': 'evt_0001',
  'x-service-api-version': '1',
  'content-type': 'application/json',
};

describe('verifyWebhook', () => {
  it('accepts the openssl vector and returns the parsed event', () => {
    expect(verifyWebhook(Buffer.from(BODY), headers, options)).toEqual({
      ok: true,
      event: { eventId: 'evt_0001', event: 'settled', attemptId: 'att_1', partnerId: 'partner-a' },
    });
    expect(verifyWebhook(BODY, headers, options).ok).toBe(true);
  });

  it('during a secret rotation, accepts a signature by either secret given, and no other', () => {
    expect(verifyWebhook(BODY, headers, { ...options, secret: ['whsec-new', 'whsec-partner-a'] }).ok).toBe(
      true,
    );
    expect(verifyWebhook(BODY, headers, { ...options, secret: ['whsec-partner-a', 'whsec-new'] }).ok).toBe(
      true,
    );
    expect(verifyWebhook(BODY, headers, { ...options, secret: ['whsec-new', 'whsec-other'] })).toEqual({
      ok: false,
      reason: 'signature_invalid',
    });
    expect(verifyWebhook(BODY, headers, { ...options, secret: [] })).toEqual({
      ok: false,
      reason: 'signature_invalid',
    });
  });

  it('reads header names in any case', () => {
    const mixed = {
      'X-Partner-Id': 'partner-a',
      'X-Timestamp': TIMESTAMP,
      'X-Signature': SIGNATURE,
      'X-Service-Event-Id': 'evt_0001',
    };
    expect(verifyWebhook(BODY, mixed, options).ok).toBe(true);
  });

  it('accepts a timestamp exactly at the tolerance and honours a custom tolerance', () => {
    expect(verifyWebhook(BODY, headers, { ...options, nowMs: NOW + 300_000 }).ok).toBe(true);
    expect(verifyWebhook(BODY, headers, { ...options, nowMs: NOW - 300_000 }).ok).toBe(true);
    expect(verifyWebhook(BODY, headers, { ...options, nowMs: NOW + 60_000, toleranceMs: 30_000 })).toEqual({
      ok: false,
      reason: 'timestamp_expired',
    });
  });

  const resigned = (
    body: string,
    change: Record<string, string | string[] | undefined> = {},
    ts = TIMESTAMP,
  ) => ({
    ...headers,
    'x-timestamp': ts,
    'x-signature': signWebhook('whsec-partner-a', ts, body),
    ...change,
  });

  it.each<[string, Buffer | string, Record<string, string | string[] | undefined>, WebhookRejection]>([
    ['a tampered body', BODY.replace('settled', 'failed'), headers, 'signature_invalid'],
    [
      'a body re-serialised with spaces',
      JSON.stringify(JSON.parse(BODY), null, 1),
      headers,
      'signature_invalid',
    ],
    ['a trailing newline', `${BODY}\n`, headers, 'signature_invalid'],
    [
      'the wrong secret',
      BODY,
      { ...headers, 'x-signature': signWebhook('other-secret', TIMESTAMP, BODY) },
      'signature_invalid',
    ],
    [
      'an upper-case signature',
      BODY,
      { ...headers, 'x-signature': SIGNATURE.toUpperCase() },
      'signature_invalid',
    ],
    [
      'a truncated signature',
      BODY,
      { ...headers, 'x-signature': SIGNATURE.slice(0, 63) },
      'signature_invalid',
    ],
    ['a stale timestamp', BODY, resigned(BODY, {}, String(NOW - 300_001)), 'timestamp_expired'],
    ['a future timestamp', BODY, resigned(BODY, {}, String(NOW + 300_001)), 'timestamp_expired'],
    [
      'a timestamp that is not epoch ms',
      BODY,
      { ...headers, 'x-timestamp': '2026-01-01T00:00:00Z' },
      'timestamp_invalid',
    ],
    [
      'a changed timestamp (replay with a new time)',
      BODY,
      { ...headers, 'x-timestamp': String(NOW + 1) },
      'signature_invalid',
    ],
    ['another partner id', BODY, { ...headers, 'x-partner-id': 'partner-b' }, 'partner_mismatch'],
    [
      'an event id header that differs from the payload',
      BODY,
      { ...headers, 'x-service-event-id': 'evt_0002' },
      'event_id_mismatch',
    ],
    ['no event id header', BODY, { ...headers, 'x-service-event-id': undefined }, 'header_missing'],
    ['no signature', BODY, { ...headers, 'x-signature': undefined }, 'header_missing'],
    ['an empty partner id', BODY, { ...headers, 'x-partner-id': '' }, 'header_missing'],
    [
      'a duplicated signature header',
      BODY,
      { ...headers, 'x-signature': [SIGNATURE, SIGNATURE] },
      'header_duplicated',
    ],
    ['a duplicate under another case', BODY, { ...headers, 'X-Timestamp': TIMESTAMP }, 'header_duplicated'],
    ['a validly signed body that is not JSON', 'not json', resigned('not json'), 'body_invalid'],
    ['a validly signed JSON array', '[]', resigned('[]'), 'body_invalid'],
    [
      'a validly signed body without eventId',
      '{"event":"settled"}',
      resigned('{"event":"settled"}'),
      'body_invalid',
    ],
  ])('rejects %s', (_label, body, given, reason) => {
    expect(verifyWebhook(body, given, options)).toEqual({ ok: false, reason });
  });

  it('checks the signature before parsing: a forged body is never parsed', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      verifyWebhook('{"eventId":"evt_0001"}', headers, options);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});

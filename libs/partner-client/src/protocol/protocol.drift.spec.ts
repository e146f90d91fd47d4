import * as auth from '@svc/auth';
import * as contract from '@svc/contract';
import fc from 'fast-check';
import { parseRetryAfter } from './retry-after';
import {
  buildSigningStringV2,
  sha256Hex,
  signRequestV1,
  signRequestV2,
  signWebhook,
  timingSafeEqualHex,
} from './signing';
import { API_PREFIX, HEADER } from './wire';

// The published package carries its own copy of the wire protocol (it cannot depend on the service's unpublished
// libraries). These properties pin that copy to the service's side, so the two cannot drift apart unnoticed.
const parts = fc.record({
  partnerId: fc.string({ minLength: 1, maxLength: 40 }),
  timestamp: fc.oneof(fc.nat(), fc.nat().map(String)),
  nonce: fc.string({ minLength: 1, maxLength: 60 }),
  method: fc.constantFrom('GET', 'POST', 'get', 'post'),
  path: fc.string({ maxLength: 80 }).map((p) => `/api/external/${p}`),
  idempotencyKey: fc.string({ maxLength: 64 }),
  bodySha256: fc.uint8Array({ maxLength: 64 }).map((b) => sha256Hex(Buffer.from(b))),
});
const secret = fc.string({ minLength: 1, maxLength: 64 });
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
);

describe('the package protocol copy agrees with the service', () => {
  it('has the same header names and API prefix', () => {
    const { lastEventId, ...shared } = HEADER;
    for (const [name, value] of Object.entries(shared))
      expect(value).toBe((contract.HEADER as Record<string, string>)[name]);
    expect(lastEventId).toBe('last-event-id');
    expect(API_PREFIX).toBe(contract.API_PREFIX);
  });

  it('builds the same v2 signing string and signature', () => {
    fc.assert(
      fc.property(secret, parts, (s, p) => {
        expect(buildSigningStringV2(p)).toBe(auth.buildSigningStringV2(p));
        expect(signRequestV2(s, p)).toBe(auth.signRequestV2(s, p));
      }),
    );
  });

  it('signs v1 requests and webhooks the same, hashes the same', () => {
    fc.assert(
      fc.property(secret, fc.nat(), body, (s, ts, b) => {
        expect(signRequestV1(s, ts, b)).toBe(auth.signRequestV1(s, ts, b));
        expect(signWebhook(s, String(ts), b)).toBe(auth.signWebhook(s, String(ts), b));
        expect(sha256Hex(b)).toBe(auth.sha256Hex(b));
      }),
    );
  });

  it('compares digests the same', () => {
    const hex = fc.string({ maxLength: 8 }).map((s) => Buffer.from(s).toString('hex'));
    fc.assert(
      fc.property(fc.oneof(hex, fc.string({ maxLength: 8 })), fc.oneof(hex, fc.string()), (a, b) => {
        expect(timingSafeEqualHex(a, b)).toBe(auth.timingSafeEqualHex(a, b));
        expect(timingSafeEqualHex(a, a)).toBe(auth.timingSafeEqualHex(a, a));
      }),
    );
  });

  it('reads Retry-After the same', () => {
    const now = Date.UTC(2026, 0, 1);
    const values = fc.oneof(
      fc.constant(undefined),
      fc.nat({ max: 10_000 }).map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(values, (v) => {
        expect(parseRetryAfter(v, now)).toBe(contract.parseRetryAfter(v, now));
      }),
    );
  });
});

import { MAX_CLOCK_SKEW_MS } from '@svc/auth';
import { type ErrorCode, HEADER, operationPath } from '@svc/contract';
import { type RequestDraft, signDraft } from './signed-request';
import { nonce, NOW_MS, QUOTE_BODY, ROTATING_PARTNER, V1_PARTNER, V2_PARTNER } from './vector-fixtures';

const PING = operationPath('ping');
const QUOTE = operationPath('quote');
const T = String(NOW_MS);

const draft = (change: Partial<RequestDraft>): RequestDraft => ({
  authVersion: 2,
  partnerId: V2_PARTNER.partnerId,
  secret: V2_PARTNER.secret,
  method: 'POST',
  path: QUOTE,
  body: Buffer.from(QUOTE_BODY, 'utf8'),
  idempotencyKey: 'quote-order-1042',
  timestamp: T,
  nonce: nonce(100),
  ...change,
});
const legacy = (change: Partial<RequestDraft>) =>
  draft({
    authVersion: 1,
    partnerId: V1_PARTNER.partnerId,
    secret: V1_PARTNER.secret,
    nonce: null,
    ...change,
  });

export interface WireRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: Buffer;
}
const signed = (d: RequestDraft): WireRequest => ({ ...d, headers: signDraft(d).headers });
const edit = (request: WireRequest, change: (r: WireRequest) => Partial<WireRequest>) => ({
  ...request,
  ...change(request),
});
const without = (name: string) => (r: WireRequest) => ({ headers: r.headers.filter(([n]) => n !== name) });

type Expected = { ok: true } | { ok: false; code: ErrorCode };
export interface VerifyCase {
  name: string;
  description: string;
  request: WireRequest;
  /** An earlier request with the same nonce that the service accepted (the nonce is then bound to it). */
  after?: WireRequest;
  nowMs?: number;
  expect: Expected;
}

const quote = signed(draft({}));
/** The requests of verify.json, each with the answer it was written to show (the generator checks it). */
export const VERIFY_CASES: VerifyCase[] = [
  { name: 'v2-valid', description: 'A correctly signed v2 POST.', request: quote, expect: { ok: true } },
  {
    name: 'v2-valid-get',
    description: 'A correctly signed v2 GET.',
    request: signed(draft({ method: 'GET', path: PING, body: Buffer.alloc(0), idempotencyKey: null })),
    expect: { ok: true },
  },
  {
    name: 'v1-valid',
    description: 'A correctly signed legacy (v1) POST.',
    request: signed(legacy({})),
    expect: { ok: true },
  },
  {
    name: 'timestamp-at-window-edge',
    description: `Received exactly ${MAX_CLOCK_SKEW_MS} ms after X-Timestamp: still accepted.`,
    request: quote,
    nowMs: NOW_MS + MAX_CLOCK_SKEW_MS,
    expect: { ok: true },
  },
  {
    name: 'timestamp-expired',
    description: 'Received one millisecond past the five-minute window.',
    request: quote,
    nowMs: NOW_MS + MAX_CLOCK_SKEW_MS + 1,
    expect: { ok: false, code: 'external_auth_timestamp_expired' },
  },
  {
    name: 'timestamp-in-the-future',
    description: 'X-Timestamp one millisecond more than five minutes ahead of the server clock.',
    request: quote,
    nowMs: NOW_MS - MAX_CLOCK_SKEW_MS - 1,
    expect: { ok: false, code: 'external_auth_timestamp_expired' },
  },
  {
    name: 'timestamp-in-seconds',
    description: 'X-Timestamp sent in seconds: not epoch milliseconds of now.',
    request: signed(draft({ timestamp: String(NOW_MS / 1000) })),
    expect: { ok: false, code: 'external_auth_timestamp_expired' },
  },
  {
    name: 'timestamp-not-decimal',
    description: 'X-Timestamp as ISO text.',
    request: signed(draft({ timestamp: '2026-01-01T00:00:00Z' })),
    expect: { ok: false, code: 'external_auth_timestamp_invalid' },
  },
  {
    name: 'wrong-secret',
    description: 'Signed with a secret that is not the partner’s.',
    request: signed(draft({ secret: 'not-the-partner-secret' })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'body-changed-by-one-byte',
    description: 'The body sent differs from the body signed in its last byte.',
    request: edit(quote, (r) => ({ body: Buffer.concat([r.body.subarray(0, -1), Buffer.from(' ')]) })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'body-re-serialized',
    description: 'The body signed compact, then re-serialized with indentation before sending.',
    request: edit(quote, (r) => ({
      body: Buffer.from(JSON.stringify(JSON.parse(r.body.toString('utf8')), null, 2)),
    })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'trailing-slash-sent-canonical-signed',
    description: 'Sent with a trailing slash, the canonical path (without it) signed: accepted.',
    request: signed(draft({ path: `${QUOTE}/` })),
    expect: { ok: true },
  },
  {
    name: 'trailing-slash-signed',
    description:
      'Sent with a trailing slash and that path signed as sent: the service signs the canonical path, so the signatures differ.',
    request: signed(draft({ path: `${QUOTE}/`, signedPath: `${QUOTE}/` })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'path-differs',
    description: 'Signed for another path than the one sent.',
    request: signed(draft({ signedPath: operationPath('ping') })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'query-string',
    description: 'Any query string is refused, even one signed.',
    request: signed(
      draft({
        method: 'GET',
        path: `${PING}?a=1`,
        signedPath: `${PING}?a=1`,
        body: Buffer.alloc(0),
        idempotencyKey: null,
      }),
    ),
    expect: { ok: false, code: 'external_auth_request_invalid' },
  },
  {
    name: 'v1-signature-from-v2-partner',
    description: 'A v2 partner signs the legacy way, without X-Service-Auth-Version and X-Nonce.',
    request: signed(draft({ authVersion: 1, nonce: null })),
    expect: { ok: false, code: 'external_auth_headers_required' },
  },
  {
    name: 'v2-signature-from-v1-partner',
    description: 'A v1 partner sends a v2 signature with its headers.',
    request: signed(draft({ partnerId: V1_PARTNER.partnerId, secret: V1_PARTNER.secret })),
    expect: { ok: false, code: 'external_auth_version_mismatch' },
  },
  {
    name: 'nonce-missing',
    description: 'X-Service-Auth-Version: 2 without X-Nonce.',
    request: edit(quote, without(HEADER.nonce)),
    expect: { ok: false, code: 'external_auth_headers_required' },
  },
  {
    name: 'nonce-too-short',
    description: 'A nonce of 15 characters.',
    request: signed(draft({ nonce: 'n'.repeat(15) })),
    expect: { ok: false, code: 'external_auth_nonce_invalid' },
  },
  {
    name: 'signature-missing',
    description: 'No X-Signature.',
    request: edit(quote, without(HEADER.signature)),
    expect: { ok: false, code: 'external_auth_headers_required' },
  },
  {
    name: 'signature-upper-case-hex',
    description: 'The right digest in upper-case hex: X-Signature is lower-case hex.',
    request: edit(quote, (r) => ({
      headers: r.headers.map(([n, v]): [string, string] => [n, n === HEADER.signature ? v.toUpperCase() : v]),
    })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'header-duplicated',
    description: 'X-Signature sent twice (even with the same value).',
    request: edit(quote, (r) => ({
      headers: [...r.headers, r.headers.find(([n]) => n === HEADER.signature)!],
    })),
    expect: { ok: false, code: 'external_auth_request_invalid' },
  },
  {
    name: 'unknown-partner',
    description:
      'A partner id the service does not know, otherwise well signed: the same answer as a wrong secret.',
    request: signed(draft({ partnerId: 'nobody' })),
    expect: { ok: false, code: 'external_auth_signature_invalid' },
  },
  {
    name: 'v1-empty-post',
    description: 'A legacy POST with no body (its signature would equal a GET’s).',
    request: signed(legacy({ body: Buffer.alloc(0) })),
    expect: { ok: false, code: 'external_auth_body_required' },
  },
  {
    name: 'rotation-previous-secret',
    description: 'During a rotation, signed with the secret being retired.',
    request: signed(
      draft({ partnerId: ROTATING_PARTNER.partnerId, secret: ROTATING_PARTNER.previousSecret }),
    ),
    expect: { ok: true },
  },
  {
    name: 'rotation-new-secret',
    description: 'During a rotation, signed with the new secret.',
    request: signed(draft({ partnerId: ROTATING_PARTNER.partnerId, secret: ROTATING_PARTNER.secret })),
    expect: { ok: true },
  },
  {
    name: 'nonce-resent-same-request',
    description: 'The identical signed request again (a network duplicate): accepted.',
    after: quote,
    request: quote,
    expect: { ok: true },
  },
  {
    name: 'nonce-reused',
    description:
      'The nonce of an accepted request, on another request (here a retry that kept the nonce and took a new timestamp).',
    after: quote,
    request: signed(draft({ timestamp: String(NOW_MS + 1000) })),
    expect: { ok: false, code: 'external_auth_nonce_conflict' },
  },
];

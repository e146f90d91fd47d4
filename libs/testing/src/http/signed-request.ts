import { type Agent } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sha256Hex, signRequestV1, signRequestV2 } from '@svc/auth';
import { rawRequest, type RawResponse } from './raw-request';

export interface TestPartner {
  partnerId: string;
  secret: string;
  authVersion: 1 | 2;
}

export interface SignedRequestOptions {
  port: number;
  /** A keep-alive agent (see rawRequest); default: a connection per request. */
  agent?: Agent;
  partner: TestPartner;
  method: string;
  /** Sent as is. */
  path: string;
  /** The path that is signed (defaults to `path`). */
  signedPath?: string;
  /** Raw body bytes, or an object to JSON.stringify once. */
  body?: unknown;
  idempotencyKey?: string | null;
  nonce?: string;
  timestamp?: number | string;
  /** Overrides the computed signature. */
  signature?: string;
  /** Secret used to sign (defaults to the partner's). */
  signingSecret?: string;
  contentType?: string | null;
  /** Extra headers appended after the standard ones (duplicates allowed). */
  extraHeaders?: [string, string][];
  /** Standard headers to leave out, by lower-case name. */
  omit?: string[];
}

export function freshNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** A partner request signed like the spec says (v2 or legacy v1), with every part overridable for tests. */
export function signedRequest(o: SignedRequestOptions): Promise<RawResponse> {
  const bytes =
    o.body === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(o.body)
        ? o.body
        : Buffer.from(typeof o.body === 'string' ? o.body : JSON.stringify(o.body));
  const timestamp = String(o.timestamp ?? Date.now());
  const nonce = o.nonce ?? freshNonce();
  const key =
    o.idempotencyKey === undefined ? (o.method === 'POST' ? `key-${freshNonce()}` : null) : o.idempotencyKey;
  const secret = o.signingSecret ?? o.partner.secret;
  const signature =
    o.signature ??
    (o.partner.authVersion === 2
      ? signRequestV2(secret, {
          partnerId: o.partner.partnerId,
          timestamp,
          nonce,
          method: o.method,
          path: o.signedPath ?? o.path,
          idempotencyKey: key ?? '',
          bodySha256: sha256Hex(bytes),
        })
      : signRequestV1(secret, timestamp, bytes));
  const headers: [string, string][] = [
    ['X-Partner-Id', o.partner.partnerId],
    ['X-Timestamp', timestamp],
    ['X-Signature', signature],
  ];
  if (o.partner.authVersion === 2) headers.push(['X-Service-Auth-Version', '2'], ['X-Nonce', nonce]);
  if (key !== null) headers.push(['Idempotency-Key', key]);
  if (bytes.length > 0 && o.contentType !== null)
    headers.push(['Content-Type', o.contentType ?? 'application/json']);
  const omit = new Set(o.omit ?? []);
  const kept = headers.filter(([name]) => !omit.has(name.toLowerCase()));
  return rawRequest({
    port: o.port,
    method: o.method,
    path: o.path,
    headers: [...kept, ...(o.extraHeaders ?? [])],
    ...(bytes.length > 0 || o.method === 'POST' ? { body: bytes } : {}),
    ...(o.agent ? { agent: o.agent } : {}),
  });
}

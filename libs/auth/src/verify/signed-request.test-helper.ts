import { sha256Hex } from '../hash/sha256-hex';
import { signRequestV1 } from '../signing/sign-request-v1';
import { signRequestV2 } from '../signing/sign-request-v2';
import { type ErrorCode } from '@svc/contract';
import { type AuthRequest, type AuthResult, type LookupPartner, type PartnerAuthConfig } from './auth-types';
import { authenticateRequest } from './authenticate-request';

/** Builders for authenticateRequest tests. Signing here uses the library, whose output the vector tests pin. */
export const NOW = 1_767_225_600_000;
export const V2_SECRET = 'v2-secret-for-tests';
export const V1_SECRET = 'v1-secret-for-tests';
export const LONG_ID = 'p'.repeat(64);
/** The secrets of a partner in the middle of a rotation. */
export const NEW_SECRET = 'new-secret-for-rotation-tests';
export const OLD_SECRET = 'old-secret-for-rotation-tests';

const partners = new Map<string, PartnerAuthConfig>([
  ['partner-v2', { partnerId: 'partner-v2', secret: V2_SECRET, authVersion: 2 }],
  ['partner-v1', { partnerId: 'partner-v1', secret: V1_SECRET, authVersion: 1 }],
  [LONG_ID, { partnerId: LONG_ID, secret: V2_SECRET, authVersion: 2 }],
  [
    'partner-rotating',
    { partnerId: 'partner-rotating', secret: NEW_SECRET, previousSecret: OLD_SECRET, authVersion: 2 },
  ],
  [
    'partner-rotating-v1',
    { partnerId: 'partner-rotating-v1', secret: NEW_SECRET, previousSecret: OLD_SECRET, authVersion: 1 },
  ],
]);
export const lookupPartner: LookupPartner = (id) => partners.get(id);

export interface V2Draft {
  partnerId: string;
  secret: string;
  method: string;
  /** Sent as the request target. */
  url: string;
  /** Signed; defaults to `url`. */
  signedPath?: string;
  body: string;
  /** Sent as Idempotency-Key unless `''`, and signed. */
  key: string;
  nonce: string;
  timestamp: string;
}

export const v2Defaults: V2Draft = {
  partnerId: 'partner-v2',
  secret: V2_SECRET,
  method: 'POST',
  url: '/api/external/intents/quote',
  body: '{"walletAddress":"0x1111111111111111111111111111111111111111"}',
  key: 'key-0001',
  nonce: 'nonce-0123456789abcdef',
  timestamp: String(NOW),
};

export function signedV2(change: Partial<V2Draft> = {}): AuthRequest {
  const d = { ...v2Defaults, ...change };
  const signature = signRequestV2(d.secret, {
    partnerId: d.partnerId,
    timestamp: d.timestamp,
    nonce: d.nonce,
    method: d.method,
    path: d.signedPath ?? d.url,
    idempotencyKey: d.key,
    bodySha256: sha256Hex(d.body),
  });
  const rawHeaders = [
    'Host',
    '127.0.0.1',
    'X-Partner-Id',
    d.partnerId,
    'X-Timestamp',
    d.timestamp,
    'X-Service-Auth-Version',
    '2',
    'X-Nonce',
    d.nonce,
    'X-Signature',
    signature,
  ];
  if (d.key !== '') rawHeaders.push('Idempotency-Key', d.key);
  if (d.method === 'POST') rawHeaders.push('Content-Type', 'application/json');
  return { method: d.method, rawUrl: d.url, rawHeaders, body: Buffer.from(d.body) };
}

export function signedV1(
  change: {
    body?: string;
    timestamp?: string;
    secret?: string;
    partnerId?: string;
    method?: string;
    url?: string;
    key?: string;
  } = {},
): AuthRequest {
  const method = change.method ?? 'POST';
  const body =
    change.body ?? (method === 'GET' ? '' : '{"walletAddress":"0x1111111111111111111111111111111111111111"}');
  const timestamp = change.timestamp ?? String(NOW);
  const signature = signRequestV1(change.secret ?? V1_SECRET, timestamp, body);
  const key = change.key ?? (method === 'GET' ? '' : 'key-0001');
  const rawHeaders = [
    'X-Partner-Id',
    change.partnerId ?? 'partner-v1',
    'X-Timestamp',
    timestamp,
    'X-Signature',
    signature,
  ];
  if (key !== '') rawHeaders.push('Idempotency-Key', key);
  if (method === 'POST') rawHeaders.push('Content-Type', 'application/json');
  return { method, rawUrl: change.url ?? '/api/external/intents/quote', rawHeaders, body: Buffer.from(body) };
}

/** Replaces every occurrence of a header (case-insensitive), or appends it; `undefined` removes it. */
export function withHeader(request: AuthRequest, name: string, value: string | undefined): AuthRequest {
  const rawHeaders: string[] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i].toLowerCase() !== name.toLowerCase())
      rawHeaders.push(request.rawHeaders[i], request.rawHeaders[i + 1]);
  }
  if (value !== undefined) rawHeaders.push(name, value);
  return { ...request, rawHeaders };
}

/** Appends a second copy of a header, in a different case, as a client could send it. */
export function withDuplicate(request: AuthRequest, name: string, value: string): AuthRequest {
  return { ...request, rawHeaders: [...request.rawHeaders, name.toUpperCase(), value] };
}

/** Runs the verifier with the test partners at `nowMs`. */
export function auth(request: AuthRequest, nowMs = NOW): AuthResult {
  return authenticateRequest(request, lookupPartner, nowMs);
}

/** The verifier's error code, or 'ok'. */
export function codeOf(request: AuthRequest, nowMs = NOW): ErrorCode | 'ok' {
  const result = auth(request, nowMs);
  return result.ok ? 'ok' : result.code;
}

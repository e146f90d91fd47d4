import {
  buildSigningStringV2,
  canonicalizeRequestPath,
  sha256Hex,
  signRequestV1,
  signRequestV2,
} from '@svc/auth';
import { HEADER } from '@svc/contract';

/** What a client signs and sends; every field is a fixed input of a vector. */
export interface RequestDraft {
  authVersion: 1 | 2;
  partnerId: string;
  /** The secret the client signs with (not necessarily the partner's, for the failing cases). */
  secret: string;
  method: 'GET' | 'POST';
  /** The request target as sent. */
  path: string;
  /** The path that is signed; the canonical form of `path` unless a case signs another one on purpose. */
  signedPath?: string;
  body: Buffer;
  idempotencyKey: string | null;
  timestamp: string;
  /** v2 only. */
  nonce: string | null;
}

export interface SignedRequest {
  signedPath: string;
  bodySha256: string;
  /** v2: the ten-line string; v1: `<timestamp>.<raw body>`. */
  signedMessage: Buffer;
  signature: string;
  /** Lower-case names (HTTP names are case-insensitive), in the order a client sets them. */
  headers: [string, string][];
}

/** Signs a draft with the service's own signing code (libs/auth), as the service expects a client to. */
export function signDraft(draft: RequestDraft): SignedRequest {
  const canonical = canonicalizeRequestPath(draft.path);
  const signedPath = draft.signedPath ?? (canonical.ok ? canonical.path : draft.path);
  const bodySha256 = sha256Hex(draft.body);
  const parts = {
    partnerId: draft.partnerId,
    timestamp: draft.timestamp,
    nonce: draft.nonce ?? '',
    method: draft.method,
    path: signedPath,
    idempotencyKey: draft.idempotencyKey ?? '',
    bodySha256,
  };
  const v2 = draft.authVersion === 2;
  const signature = v2
    ? signRequestV2(draft.secret, parts)
    : signRequestV1(draft.secret, draft.timestamp, draft.body);
  const signedMessage = v2
    ? Buffer.from(buildSigningStringV2(parts), 'utf8')
    : Buffer.concat([Buffer.from(`${draft.timestamp}.`, 'utf8'), draft.body]);
  const headers: [string, string][] = [
    [HEADER.partnerId, draft.partnerId],
    [HEADER.timestamp, draft.timestamp],
  ];
  if (v2) headers.push([HEADER.authVersion, '2'], [HEADER.nonce, draft.nonce ?? '']);
  headers.push([HEADER.signature, signature]);
  if (draft.idempotencyKey !== null) headers.push([HEADER.idempotencyKey, draft.idempotencyKey]);
  if (draft.method === 'POST') headers.push([HEADER.contentType, 'application/json']);
  return { signedPath, bodySha256, signedMessage, signature, headers };
}

import { HEADER } from '../protocol/wire';
import { sha256Hex, signRequestV1, signRequestV2 } from '../protocol/signing';

export interface PartnerCredentials {
  partnerId: string;
  secret: string;
  authVersion: 1 | 2;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  /** Full signed pathname, e.g. `/api/external/ping`. */
  path: string;
  /** Exact bytes to send; null for GET. */
  body: Buffer | null;
  idempotencyKey: string | null;
}

/** Headers of one try. Called per try: timestamp, nonce and signature are never reused (spec: X-Nonce). */
export function authHeaders(
  credentials: PartnerCredentials,
  request: OutgoingRequest,
  timestamp: number,
  nonce: string,
): Record<string, string> {
  const body = request.body ?? Buffer.alloc(0);
  const headers: Record<string, string> = {
    [HEADER.partnerId]: credentials.partnerId,
    [HEADER.timestamp]: String(timestamp),
  };
  if (credentials.authVersion === 2) {
    headers[HEADER.authVersion] = '2';
    headers[HEADER.nonce] = nonce;
    headers[HEADER.signature] = signRequestV2(credentials.secret, {
      partnerId: credentials.partnerId,
      timestamp,
      nonce,
      method: request.method,
      path: request.path,
      idempotencyKey: request.idempotencyKey ?? '',
      bodySha256: sha256Hex(body),
    });
  } else {
    headers[HEADER.signature] = signRequestV1(credentials.secret, timestamp, body);
  }
  if (request.idempotencyKey !== null) headers[HEADER.idempotencyKey] = request.idempotencyKey;
  if (request.method === 'POST') headers[HEADER.contentType] = 'application/json';
  return headers;
}

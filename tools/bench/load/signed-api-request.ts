import { sha256Hex, signRequestV2 } from '@svc/auth';
import { HEADER } from '@svc/contract';
import { freshNonce } from '@svc/testing';
import { type LoadRequest } from './drive-load';

export interface BenchPartner {
  partnerId: string;
  secret: string;
}

const EMPTY = Buffer.alloc(0);

/**
 * A GET as a partner's backend sends it: signed v2 with this moment's timestamp and a nonce never used before, so the
 * server does the full verification and spends a nonce on every request of a load run.
 */
export function signedGet(partner: BenchPartner, path: string): LoadRequest {
  return signed(partner, 'GET', path, EMPTY);
}

/**
 * A POST of a read-only route (the lookups' search) as a partner's backend sends it: signed v2 over the JSON body, with
 * an Idempotency-Key of its own.
 */
export function signedPost(partner: BenchPartner, path: string, body: unknown): LoadRequest {
  return signed(partner, 'POST', path, Buffer.from(JSON.stringify(body)));
}

function signed(partner: BenchPartner, method: 'GET' | 'POST', path: string, body: Buffer): LoadRequest {
  const timestamp = String(Date.now());
  const nonce = freshNonce();
  const idempotencyKey = method === 'POST' ? freshNonce() : '';
  const signature = signRequestV2(partner.secret, {
    partnerId: partner.partnerId,
    timestamp,
    nonce,
    method,
    path,
    idempotencyKey,
    bodySha256: sha256Hex(body),
  });
  return {
    method,
    path,
    headers: {
      [HEADER.partnerId]: partner.partnerId,
      [HEADER.timestamp]: timestamp,
      [HEADER.authVersion]: '2',
      [HEADER.nonce]: nonce,
      [HEADER.signature]: signature,
      ...(method === 'POST'
        ? { [HEADER.idempotencyKey]: idempotencyKey, 'content-type': 'application/json' }
        : {}),
    },
    ...(method === 'POST' ? { body } : {}),
  };
}

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
  const timestamp = String(Date.now());
  const nonce = freshNonce();
  const signature = signRequestV2(partner.secret, {
    partnerId: partner.partnerId,
    timestamp,
    nonce,
    method: 'GET',
    path,
    idempotencyKey: '',
    bodySha256: sha256Hex(EMPTY),
  });
  return {
    method: 'GET',
    path,
    headers: {
      [HEADER.partnerId]: partner.partnerId,
      [HEADER.timestamp]: timestamp,
      [HEADER.authVersion]: '2',
      [HEADER.nonce]: nonce,
      [HEADER.signature]: signature,
    },
  };
}

import { sha256Hex, signRequestV2 } from '@svc/auth';
import { HEADER } from '@svc/contract';
import { freshNonce } from '@svc/testing';
import { type LoadRequest } from '../load/drive-load';
import { type BenchPartner } from '../load/signed-api-request';

/**
 * A POST as a partner's backend sends it (signedGet's twin): signed v2 over the exact body bytes, with this moment's
 * timestamp, a nonce never used before and the given Idempotency-Key (a new one per quote, so none is a replay).
 */
export function signedPost(
  partner: BenchPartner,
  path: string,
  body: Buffer,
  idempotencyKey: string,
): LoadRequest {
  const timestamp = String(Date.now());
  const nonce = freshNonce();
  const signature = signRequestV2(partner.secret, {
    partnerId: partner.partnerId,
    timestamp,
    nonce,
    method: 'POST',
    path,
    idempotencyKey,
    bodySha256: sha256Hex(body),
  });
  return {
    method: 'POST',
    path,
    body,
    headers: {
      [HEADER.partnerId]: partner.partnerId,
      [HEADER.timestamp]: timestamp,
      [HEADER.authVersion]: '2',
      [HEADER.nonce]: nonce,
      [HEADER.signature]: signature,
      [HEADER.idempotencyKey]: idempotencyKey,
      [HEADER.contentType]: 'application/json',
      'content-length': String(body.length),
    },
  };
}

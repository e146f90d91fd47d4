import { HEADER, PROTECTED_HEADERS } from '@svc/contract';
import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { sha256Hex } from '../hash/sha256-hex';
import { timingSafeEqualHex } from '../hash/timing-safe-equal-hex';
import { canonicalizeRequestPath } from '../path/canonicalize-request-path';
import { buildSigningStringV2 } from '../signing/signing-string-v2';
import { timestampDotBody } from '../signing/timestamp-dot-body';
import { authFailure } from './auth-failure';
import { type AuthRequest, type AuthResult, type LookupPartner } from './auth-types';
import { checkTimestamp } from './check-timestamp';
import { indexRawHeaders } from './raw-header-index';
import { resolveAuthVersion } from './resolve-auth-version';

const PARTNER_ID_MAX_LENGTH = 64;
const NONCE_FORMAT = /^[A-Za-z0-9._~-]{16,128}$/;
const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;
// Keys the HMAC computed for an unknown partner, so that path costs what a known partner's does.
const DECOY_SECRET = 'unknown-partner-decoy-secret';

/**
 * Verifies a partner request (spec: Authentication), in the order that yields one stable error code per fault.
 * Pure: the clock reading and the partner lookup come in. Partner enablement, rate limits, nonce storage,
 * idempotency and content type are the gateway's checks, made after this one succeeds.
 */
export function authenticateRequest(
  request: AuthRequest,
  lookupPartner: LookupPartner,
  nowMs: number,
): AuthResult {
  const headers = indexRawHeaders(request.rawHeaders);
  const duplicate = headers.firstDuplicate(PROTECTED_HEADERS);
  if (duplicate !== undefined) {
    return authFailure(
      'external_auth_request_invalid',
      `Header ${duplicate} must not appear more than once.`,
    );
  }

  const canonical = canonicalizeRequestPath(request.rawUrl);
  if (!canonical.ok) {
    return authFailure(
      'external_auth_request_invalid',
      `The request path is not accepted (${canonical.reason}).`,
    );
  }

  const partnerId = headers.get(HEADER.partnerId)?.trim();
  if (!partnerId) return authFailure('external_auth_headers_required', 'X-Partner-Id is required.');
  // An over-long id is handled as an unknown one: it ends in the same signature error, nothing more specific.
  const partner = partnerId.length <= PARTNER_ID_MAX_LENGTH ? lookupPartner(partnerId) : undefined;

  const version = resolveAuthVersion(headers.get(HEADER.authVersion), partner?.authVersion);
  if (!version.ok) return version;

  const timestamp = headers.get(HEADER.timestamp);
  if (timestamp === undefined)
    return authFailure('external_auth_headers_required', 'X-Timestamp is required.');
  const signature = headers.get(HEADER.signature);
  if (signature === undefined)
    return authFailure('external_auth_headers_required', 'X-Signature is required.');
  const fresh = checkTimestamp(timestamp, nowMs);
  if (!fresh.ok) return fresh;

  let nonce: string | null = null;
  let signed: string | Buffer;
  if (version.authVersion === 2) {
    nonce = headers.get(HEADER.nonce) ?? null;
    if (nonce === null) return authFailure('external_auth_headers_required', 'X-Nonce is required.');
    if (!NONCE_FORMAT.test(nonce)) {
      return authFailure(
        'external_auth_nonce_invalid',
        'X-Nonce must be 16 to 128 characters of A-Za-z0-9._~-.',
      );
    }
    signed = buildSigningStringV2({
      partnerId,
      timestamp,
      nonce,
      method: request.method,
      path: canonical.path,
      idempotencyKey: headers.get(HEADER.idempotencyKey) ?? '',
      bodySha256: sha256Hex(request.body),
    });
  } else {
    signed = timestampDotBody(timestamp, request.body);
  }

  const expected = hmacSha256Hex(partner?.secret ?? DECOY_SECRET, signed);
  const matches = SIGNATURE_FORMAT.test(signature) && timingSafeEqualHex(expected, signature);
  if (partner === undefined || !matches) {
    return authFailure('external_auth_signature_invalid', 'The signature does not match the request.');
  }
  return {
    ok: true,
    partnerId: partner.partnerId,
    authVersion: version.authVersion,
    path: canonical.path,
    nonce,
    requestTupleHash: typeof signed === 'string' ? sha256Hex(signed) : null,
  };
}

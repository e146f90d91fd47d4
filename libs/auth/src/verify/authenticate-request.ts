import { HEADER, PROTECTED_HEADERS } from '@svc/contract';
import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { sha256Hex } from '../hash/sha256-hex';
import { timingSafeEqualHex } from '../hash/timing-safe-equal-hex';
import { canonicalizeRequestPath } from '../path/canonicalize-request-path';
import { buildSigningStringV2 } from '../signing/signing-string-v2';
import { timestampDotBody } from '../signing/timestamp-dot-body';
import { authFailure } from './auth-failure';
import { type AuthFailure, type AuthRequest, type AuthResult, type LookupPartner } from './auth-types';
import { checkTimestamp } from './check-timestamp';
import { indexRawHeaders } from './raw-header-index';

const PARTNER_ID_MAX_LENGTH = 64;
const NONCE_FORMAT = /^[A-Za-z0-9._~-]{16,128}$/;
const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;
// Keys the HMAC computed for an unknown partner, so that path costs what a known partner's does.
const DECOY_SECRET = 'unknown-partner-decoy-secret';
const DECOY_PREVIOUS_SECRET = 'no-rotation-decoy-secret';

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

  // What the caller claims is checked before anything about the partner (M9): a version that exists for nobody,
  // and, under a claimed v2, the nonce rules. What the partner is configured with is told only to a caller whose
  // signature verifies, so an unknown id and a known one with a bad signature get the same answer.
  const claimed = claimedAuthVersion(headers.get(HEADER.authVersion));
  if (claimed === 'invalid') return versionMismatch();

  const timestamp = headers.get(HEADER.timestamp);
  if (timestamp === undefined)
    return authFailure('external_auth_headers_required', 'X-Timestamp is required.');
  const signature = headers.get(HEADER.signature);
  if (signature === undefined)
    return authFailure('external_auth_headers_required', 'X-Signature is required.');
  const fresh = checkTimestamp(timestamp, nowMs);
  if (!fresh.ok) return fresh;

  const nonce = headers.get(HEADER.nonce) ?? null;
  if (claimed === 2) {
    if (nonce === null) return authFailure('external_auth_headers_required', 'X-Nonce is required.');
    if (!NONCE_FORMAT.test(nonce)) {
      return authFailure(
        'external_auth_nonce_invalid',
        'X-Nonce must be 16 to 128 characters of A-Za-z0-9._~-.',
      );
    }
  }

  const idempotencyKey = headers.get(HEADER.idempotencyKey) ?? '';
  const signingInput = (version: 1 | 2): string | Buffer =>
    version === 2
      ? buildSigningStringV2({
          partnerId,
          timestamp,
          nonce: nonce ?? '',
          method: request.method,
          path: canonical.path,
          idempotencyKey,
          bodySha256: sha256Hex(request.body),
        })
      : timestampDotBody(timestamp, request.body);
  // The partner's current secret, and during a rotation the one being retired. Both are computed on every path
  // (decoy keys where there is none), so a rotation, like an unknown id, costs what any request does.
  const keys = [partner?.secret ?? DECOY_SECRET, partner?.previousSecret ?? DECOY_PREVIOUS_SECRET];
  const matching = (version: 1 | 2): 'current' | 'previous' | null => {
    const input = signingInput(version);
    const [current, previous] = keys.map((key) => {
      const expected = hmacSha256Hex(key, input);
      return SIGNATURE_FORMAT.test(signature) && timingSafeEqualHex(expected, signature);
    });
    if (partner === undefined) return null;
    if (current) return 'current';
    return previous && partner.previousSecret !== undefined ? 'previous' : null;
  };
  const verifies = (version: 1 | 2): boolean => matching(version) !== null;

  const scheme = partner?.authVersion ?? claimed ?? 1;
  const secretUsed = matching(scheme);
  const verified = secretUsed !== null;
  // The other scheme is computed for every request, known partner or not, so that every path costs two HMACs.
  const other = claimed !== undefined && claimed !== scheme ? claimed : scheme === 1 ? 2 : 1;
  const verifiedOther = verifies(other);
  if (!verified || partner === undefined) {
    // A caller whose signature verifies under the other scheme, with this partner's secret, holds the secret:
    // telling them what the configuration asks for reveals nothing. Under the scheme they claim: the versions
    // disagree. A v2 partner signing the legacy way without the version header (and so without a nonce): the
    // contract's "auth-version header or X-Nonce missing".
    if (verifiedOther && other === claimed) return versionMismatch();
    if (verifiedOther && claimed === undefined && scheme === 2) return v2HeadersRequired();
    return signatureInvalid();
  }
  if (claimed === undefined && scheme === 2) return v2HeadersRequired();
  if (claimed !== undefined && claimed !== scheme) return versionMismatch();
  if (scheme === 1 && request.method.toUpperCase() === 'POST' && request.body.length === 0) {
    // M4: a v1 signature covers only `<timestamp>.<body>`, so an empty POST signs exactly what a GET does.
    return authFailure(
      'external_auth_body_required',
      'A POST signed with the legacy scheme (v1) must carry a body; send {} when there is nothing to say.',
    );
  }

  const signed = signingInput(scheme);
  return {
    ok: true,
    partnerId: partner.partnerId,
    authVersion: scheme,
    path: canonical.path,
    secret: secretUsed ?? 'current',
    ...(scheme === 2
      ? { nonce, requestTupleHash: sha256Hex(signed) }
      : v1SignatureBinding(signature, request.method, canonical.path, idempotencyKey, signed)),
  };
}

/**
 * M4: a v1 signature is spent like a v2 nonce, bound to the request it was made for. The key is the signature
 * itself (in a namespace no v2 nonce of the form `v1.<64 hex>` can be told apart from, which only ever costs a
 * 409); the tuple adds what v1 does not sign: method, canonical path and Idempotency-Key. Identical bytes sent
 * again (a retry) match their own tuple and pass; the signature moved to another route or key is a conflict.
 */
function v1SignatureBinding(
  signature: string,
  method: string,
  path: string,
  idempotencyKey: string,
  signed: string | Buffer,
): { nonce: string; requestTupleHash: string } {
  const tuple = ['v1', method.toUpperCase(), path, idempotencyKey, sha256Hex(signed)].join('\n');
  return { nonce: `v1.${signature}`, requestTupleHash: sha256Hex(tuple) };
}

function claimedAuthVersion(header: string | undefined): 1 | 2 | undefined | 'invalid' {
  if (header === undefined) return undefined;
  return header === '1' ? 1 : header === '2' ? 2 : 'invalid';
}

function versionMismatch(): AuthFailure {
  return authFailure(
    'external_auth_version_mismatch',
    "X-Service-Auth-Version must equal the partner's configured auth version (1 or 2).",
  );
}

function v2HeadersRequired(): AuthFailure {
  return authFailure(
    'external_auth_headers_required',
    'This partner signs with auth version 2: X-Service-Auth-Version: 2 and X-Nonce are required.',
  );
}

function signatureInvalid(): AuthFailure {
  return authFailure('external_auth_signature_invalid', 'The signature does not match the request.');
}

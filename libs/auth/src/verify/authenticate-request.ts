import { HEADER } from '@svc/contract';
import { hmacSha256Hex } from '../hash/hmac-sha256-hex';
import { sha256Hex } from '../hash/sha256-hex';
import { timingSafeEqualHex } from '../hash/timing-safe-equal-hex';
import { buildSigningStringV2 } from '../signing/signing-string-v2';
import { timestampDotBody } from '../signing/timestamp-dot-body';
import { authFailure } from './auth-failure';
import { type AuthFailure, type AuthRequest, type AuthResult, type LookupPartner } from './auth-types';
import { checkAuthHeaders, versionMismatch } from './check-auth-headers';

const PARTNER_ID_MAX_LENGTH = 64;
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
  const checked = checkAuthHeaders(request.rawUrl, request.rawHeaders, nowMs);
  if (!checked.ok) return checked;
  const { headers, path, partnerId, claimed, timestamp, signature, nonce } = checked;
  // An over-long id is handled as an unknown one: it ends in the same signature error, nothing more specific.
  // What the partner is configured with is told only to a caller whose signature verifies, so an unknown id and a
  // known one with a bad signature get the same answer (M9).
  const partner = partnerId.length <= PARTNER_ID_MAX_LENGTH ? lookupPartner(partnerId) : undefined;

  const idempotencyKey = headers.get(HEADER.idempotencyKey) ?? '';
  const signingInput = (version: 1 | 2): string | Buffer =>
    version === 2
      ? buildSigningStringV2({
          partnerId,
          timestamp,
          nonce: nonce ?? '',
          method: request.method,
          path,
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
    path,
    secret: secretUsed ?? 'current',
    ...(scheme === 2
      ? { nonce, requestTupleHash: sha256Hex(signed) }
      : v1SignatureBinding(signature, request.method, path, idempotencyKey, signed)),
  };
}

/**
 * M4: a v1 signature is spent like a v2 nonce, bound to the request it was made for. v1 signs only
 * `<timestamp>.<body>`, so two different requests signed in the same millisecond with the same body (two GETs, or two
 * POSTs of `{}`) share a signature. The binding is therefore keyed by the signature with what v1 does not sign: method,
 * canonical path and Idempotency-Key (security review N-L1), `v1.<sha256 hex>` (a namespace no v2 nonce of that form
 * can be told apart from, which only ever costs a 409). Two such requests are two bindings and both pass; identical
 * bytes sent again (a retry) match their own binding and tuple and pass, as they always did.
 *
 * What this gives up, by design: the server cannot tell a second request signed in the same millisecond from a
 * captured signature moved onto another route or key within the authentication window, so the latter passes too
 * (before N-L1 it was a 409 once the first had been bound). An empty v1 POST stays refused (it would sign exactly what
 * a GET does). Partners who need more than this move to v2, whose signature covers the whole request.
 */
function v1SignatureBinding(
  signature: string,
  method: string,
  path: string,
  idempotencyKey: string,
  signed: string | Buffer,
): { nonce: string; requestTupleHash: string } {
  const request = [method.toUpperCase(), path, idempotencyKey];
  const tuple = ['v1', ...request, sha256Hex(signed)].join('\n');
  return {
    nonce: `v1.${sha256Hex(JSON.stringify(['v1-binding', signature, ...request]))}`,
    requestTupleHash: sha256Hex(tuple),
  };
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

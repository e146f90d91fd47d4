import { HEADER, PROTECTED_HEADERS } from '@svc/contract';
import { canonicalizeRequestPath } from '../path/canonicalize-request-path';
import { authFailure } from './auth-failure';
import { type AuthFailure } from './auth-types';
import { checkTimestamp } from './check-timestamp';
import { indexRawHeaders } from './raw-header-index';

const NONCE_FORMAT = /^[A-Za-z0-9._~-]{16,128}$/;

/** What the authentication headers say, once their form is checked; nothing here is verified yet. */
export interface AuthHeaders {
  ok: true;
  headers: ReturnType<typeof indexRawHeaders>;
  /** The canonical path, the one that is signed. */
  path: string;
  partnerId: string;
  claimed: 1 | 2 | undefined;
  timestamp: string;
  signature: string;
  nonce: string | null;
}

/**
 * The checks of authentication that need neither the body nor the partner (issue 23: headers before a body is
 * buffered): protected headers once each, an accepted path, a partner id, a version that exists, a timestamp within
 * the window, a signature, and under a claimed v2 a well-formed nonce. Each answers the code the whole verification
 * would, in the same order, and none depends on whether the partner exists (M9: an unknown id is refused only once
 * its signature fails, like a known one's). `authenticateRequest` starts with these; the edge runs them before it
 * reads a body.
 */
export function checkAuthHeaders(
  rawUrl: string,
  rawHeaders: readonly string[],
  nowMs: number,
): AuthHeaders | AuthFailure {
  const headers = indexRawHeaders(rawHeaders);
  const duplicate = headers.firstDuplicate(PROTECTED_HEADERS);
  if (duplicate !== undefined) {
    return authFailure(
      'external_auth_request_invalid',
      `Header ${duplicate} must not appear more than once.`,
    );
  }

  const canonical = canonicalizeRequestPath(rawUrl);
  if (!canonical.ok) {
    return authFailure(
      'external_auth_request_invalid',
      `The request path is not accepted (${canonical.reason}).`,
    );
  }

  const partnerId = headers.get(HEADER.partnerId)?.trim();
  if (!partnerId) return authFailure('external_auth_headers_required', 'X-Partner-Id is required.');

  // What the caller claims is checked before anything about the partner (M9): a version that exists for nobody,
  // and, under a claimed v2, the nonce rules.
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
  return { ok: true, headers, path: canonical.path, partnerId, claimed, timestamp, signature, nonce };
}

function claimedAuthVersion(header: string | undefined): 1 | 2 | undefined | 'invalid' {
  if (header === undefined) return undefined;
  return header === '1' ? 1 : header === '2' ? 2 : 'invalid';
}

export function versionMismatch(): AuthFailure {
  return authFailure(
    'external_auth_version_mismatch',
    "X-Service-Auth-Version must equal the partner's configured auth version (1 or 2).",
  );
}

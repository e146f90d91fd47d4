import { type AuthFailure } from './auth-types';
import { authFailure } from './auth-failure';

export type ResolvedAuthVersion = { ok: true; authVersion: 1 | 2 } | AuthFailure;

/**
 * Which scheme verifies this request. The partner's configuration decides; the header may only confirm it
 * (spec: it "cannot negotiate or downgrade"). For an unknown partner (`configured` undefined) the header is
 * believed when it is `1` or `2` and v1 is assumed when it is absent, so the checks that follow are the ones a
 * known partner of that version would get and the answer reveals no more than a bad signature would.
 */
export function resolveAuthVersion(
  header: string | undefined,
  configured: 1 | 2 | undefined,
): ResolvedAuthVersion {
  if (header === undefined) {
    if (configured === 2) {
      return authFailure(
        'external_auth_headers_required',
        'X-Service-Auth-Version is required for this partner.',
      );
    }
    return { ok: true, authVersion: 1 };
  }
  const claimed = header === '1' ? 1 : header === '2' ? 2 : undefined;
  if (claimed === undefined || (configured !== undefined && claimed !== configured)) {
    return authFailure(
      'external_auth_version_mismatch',
      "X-Service-Auth-Version must equal the partner's configured auth version (1 or 2).",
    );
  }
  return { ok: true, authVersion: claimed };
}

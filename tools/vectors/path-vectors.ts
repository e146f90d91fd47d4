import { canonicalizeRequestPath, checkAuthHeaders } from '@svc/auth';
import { API_PREFIX, HEADER, httpStatusOf } from '@svc/contract';
import { nonce, NOW_MS } from './vector-fixtures';

const P = `${API_PREFIX}/ping`;

/** Request targets as sent (Node's `req.url`, before any decoding). */
const INPUTS: [input: string, description: string][] = [
  [P, 'Already canonical.'],
  [`${P}/`, 'One trailing slash is dropped.'],
  [`${P}//`, 'Two trailing slashes: an empty segment, refused rather than shortened.'],
  [`/${P}`, 'A leading double slash.'],
  [`${API_PREFIX}//ping`, 'An empty segment inside the path.'],
  [`${API_PREFIX}/attempts/at_1:2@x~y/status`, 'pchar punctuation is allowed unescaped.'],
  [`${API_PREFIX}/Ping`, 'Case is kept: paths are case-sensitive (this one routes nowhere).'],
  [`/partner-gateway${P}`, 'A deployment prefix before /api/external is part of the path.'],
  ['/', 'The root.'],
  [`${P}?`, 'An empty query: still a query string.'],
  [`${P}?b=2&a=1`, 'A query string: no operation takes one, and the signing string has no place for it.'],
  [`${P}#top`, 'A fragment (clients never send one).'],
  [`${API_PREFIX}/%70ing`, 'A percent escape of an unreserved character.'],
  [`${API_PREFIX}/attempts/at_1%2Fx/status`, 'An escaped slash.'],
  [`${API_PREFIX}/./ping`, 'A dot segment.'],
  [`${API_PREFIX}/../external/ping`, 'A dot-dot segment.'],
  [`${API_PREFIX}\\ping`, 'A backslash.'],
  [`${API_PREFIX}/p ing`, 'A space.'],
  [`${API_PREFIX}/p\u00efng`, 'A non-ASCII character, unescaped.'],
  ['api/external/ping', 'Not absolute.'],
  [`https://api.example.com${P}`, 'An absolute-form target.'],
];

/** paths.json: canonicalizeRequestPath on each input, and the code verification answers for a refused one. */
export function pathVectors(): object {
  return {
    cases: INPUTS.map(([input, description]) => {
      const result = canonicalizeRequestPath(input);
      if (result.ok) return { input, description, ok: true, canonical: result.path };
      // The verifier's own first checks, with otherwise well-formed headers: the path is refused before anything else.
      const headers = [
        HEADER.partnerId,
        'demo-partner',
        HEADER.timestamp,
        String(NOW_MS),
        HEADER.signature,
        '0'.repeat(64),
      ];
      const checked = checkAuthHeaders(
        input,
        [...headers, HEADER.authVersion, '2', HEADER.nonce, nonce(1)],
        NOW_MS,
      );
      if (checked.ok)
        throw new Error(`path case ${input}: refused by the canonicaliser but not by the verifier`);
      return {
        input,
        description,
        ok: false,
        reason: result.reason,
        status: httpStatusOf(checked.code),
        code: checked.code,
      };
    }),
  };
}

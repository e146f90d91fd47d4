export type PathRejection =
  | 'not_absolute'
  | 'query_string'
  | 'fragment'
  | 'percent_encoded'
  | 'backslash'
  | 'invalid_character'
  | 'empty_segment'
  | 'dot_segment';

export type CanonicalPathResult = { ok: true; path: string } | { ok: false; reason: PathRejection };

// RFC 3986 pchar minus pct-encoded, plus '/'. Anything else (spaces, controls, non-ASCII) is something a proxy in
// front of us might normalise differently from us, so the signed path and the routed path could disagree.
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

/**
 * Turns the raw request target (Node's `req.url`, before any decoding) into the path that is signed and routed,
 * or says why it is refused. The rule is "one spelling per resource": anything a server, proxy or framework could
 * decode or collapse into another path is rejected rather than normalised, so what the partner signed is what we
 * route. Our ids never need escapes, hence every `%` is refused, not only encoded separators.
 */
export function canonicalizeRequestPath(rawUrl: string): CanonicalPathResult {
  if (!rawUrl.startsWith('/')) return { ok: false, reason: 'not_absolute' };
  // Even an empty query (`/ping?`) is refused: the signing string has no place for it.
  if (rawUrl.includes('?')) return { ok: false, reason: 'query_string' };
  if (rawUrl.includes('#')) return { ok: false, reason: 'fragment' };
  if (rawUrl.includes('%')) return { ok: false, reason: 'percent_encoded' };
  if (rawUrl.includes('\\')) return { ok: false, reason: 'backslash' };
  if (!PATH_CHARACTERS.test(rawUrl)) return { ok: false, reason: 'invalid_character' };
  // Checked before stripping, so `//` and a doubled trailing slash are refused rather than shortened.
  if (rawUrl.includes('//')) return { ok: false, reason: 'empty_segment' };

  const path = rawUrl.length > 1 && rawUrl.endsWith('/') ? rawUrl.slice(0, -1) : rawUrl;
  if (path === '/') return { ok: true, path };
  for (const segment of path.slice(1).split('/')) {
    if (segment === '.' || segment === '..') return { ok: false, reason: 'dot_segment' };
  }
  return { ok: true, path };
}

import { API_PREFIX } from '@svc/contract';

/** The API's routes, used to tell 405 (known path, other method) from 404 (unknown path). */
export const API_ROUTES: readonly { method: 'GET' | 'POST'; pattern: RegExp }[] = [
  { method: 'GET', pattern: /^\/ping$/ },
  { method: 'POST', pattern: /^\/intents\/quote$/ },
  { method: 'POST', pattern: /^\/intents\/[^/]+\/prepare$/ },
  { method: 'POST', pattern: /^\/attempts\/[^/]+\/submitted$/ },
  { method: 'GET', pattern: /^\/attempts\/[^/]+\/status$/ },
];

const OTHER_ROUTES: readonly { method: string; pattern: RegExp }[] = [
  { method: 'GET', pattern: /^\/healthz$/ },
  { method: 'GET', pattern: /^\/readyz$/ },
  { method: 'GET', pattern: /^\/metrics$/ },
];

/** Methods allowed on `pathname` (query already removed), or [] when no route has that path. */
export function allowedMethods(pathname: string): string[] {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const matches = path.startsWith(`${API_PREFIX}/`)
    ? API_ROUTES.filter((r) => r.pattern.test(path.slice(API_PREFIX.length)))
    : OTHER_ROUTES.filter((r) => r.pattern.test(path));
  const methods = new Set(matches.map((r) => r.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}

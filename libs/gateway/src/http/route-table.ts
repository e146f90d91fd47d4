import { API_PREFIX } from '@svc/contract';
import { ROUTES } from '../pipeline/external-route';

interface Route<M extends string> {
  method: M;
  /** Express notation, as in the controllers; relative to API_PREFIX for API routes. */
  path: string;
  pattern: RegExp;
}

function route<M extends string>(method: M, path: string): Route<M> {
  const segments = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return { method, path, pattern: new RegExp(`^${segments.join('\\/')}$`) };
}

/**
 * The API's routes (from ROUTES, which the controller serves), used to tell 405 (known path, other method) from 404
 * (unknown path) and to name a request's route in metrics without its ids.
 */
export const API_ROUTES: readonly Route<'GET' | 'POST'>[] = Object.values(ROUTES).map((r) =>
  route(r.method, r.path),
);

const OTHER_ROUTES: readonly Route<string>[] = [
  route('GET', '/healthz'),
  route('GET', '/readyz'),
  route('GET', '/metrics'),
  route('GET', '/openapi.json'),
  route('GET', '/docs'),
];

/** Routes whose path matches `pathname` (query already removed), whatever their method. */
function routesAt(pathname: string): { prefix: string; routes: Route<string>[] } {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (!path.startsWith(`${API_PREFIX}/`))
    return { prefix: '', routes: OTHER_ROUTES.filter((r) => r.pattern.test(path)) };
  const rest = path.slice(API_PREFIX.length);
  return { prefix: API_PREFIX, routes: API_ROUTES.filter((r) => r.pattern.test(rest)) };
}

/** Methods allowed on `pathname` (query already removed), or [] when no route has that path. */
export function allowedMethods(pathname: string): string[] {
  const methods = new Set(routesAt(pathname).routes.map((r) => r.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}

/** The full route template for `pathname` (`/api/external/attempts/:attemptId/status`), or null if none. */
export function routeTemplate(pathname: string): string | null {
  const { prefix, routes } = routesAt(pathname);
  const [first] = routes;
  return first === undefined ? null : prefix + first.path;
}

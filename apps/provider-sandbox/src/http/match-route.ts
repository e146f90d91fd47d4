import { type SandboxRoute } from './sandbox-http';

export interface RouteMatch {
  route: SandboxRoute;
  params: Record<string, string>;
}

/** Finds the route for a method and path; `:name` segments capture one path segment each. */
export function matchRoute(
  routes: readonly SandboxRoute[],
  method: string,
  path: string,
): RouteMatch | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const parts = route.pattern.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      const segment = segments[i];
      if (part.startsWith(':')) {
        params[part.slice(1)] = decodeURIComponent(segment);
        return true;
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

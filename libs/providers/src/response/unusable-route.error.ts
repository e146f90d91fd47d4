/**
 * A well-formed answer describing a route this service cannot execute (a signature step, a source-side swap
 * we do not build); reported as route_unavailable so another provider can take the slice.
 */
export class UnusableRouteError extends Error {
  override readonly name = 'UnusableRouteError';
}

import { API_PREFIX } from './protocol/wire';
import { InvalidResourceIdError } from './invalid-resource-id.error';

/** Where requests go: the deployed origin and pathname prefix taken from the configured base URL. */
export interface ApiBase {
  origin: string;
  /** Base URL pathname without its trailing slash ('' at the root). */
  pathPrefix: string;
}

export function parseApiBase(baseUrl: string): ApiBase {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl must be http(s): ${baseUrl}`);
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

/** The signed pathname of an endpoint: the base pathname, then `/api/external`, then the endpoint path. */
export function apiPath(base: ApiBase, endpoint: string): string {
  return `${base.pathPrefix}${API_PREFIX}${endpoint}`;
}

// The characters the server accepts in a path segment without escaping (it refuses every `%`).
const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;

export function pathSegment(id: string): string {
  if (!SEGMENT.test(id) || id === '.' || id === '..') throw new InvalidResourceIdError(id);
  return id;
}

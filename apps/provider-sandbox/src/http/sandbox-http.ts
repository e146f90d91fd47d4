import { type IncomingHttpHeaders } from 'node:http';

export interface SandboxRequest {
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/**
 * What a handler answers. `raw` carries bodies that are deliberately not valid JSON (the malformed-JSON
 * fault); `hang` keeps the request open until the client gives up (the timeout fault).
 */
export type SandboxReply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'raw'; status: number; text: string; contentType: string }
  | { kind: 'hang' };

export type RouteHandler = (request: SandboxRequest) => Promise<SandboxReply>;

export interface SandboxRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with `:name` segments, e.g. `/mayan-explorer/swap/trx/:hash`. */
  pattern: string;
  handle: RouteHandler;
}

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): SandboxReply {
  return headers ? { kind: 'json', status, body, headers } : { kind: 'json', status, body };
}

/** JSON text of a reply body; bigints become decimal strings, as every dialect encodes base-unit amounts. */
export function toJsonText(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

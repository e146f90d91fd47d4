import { type Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * One HTTP request with nothing normalised: the path is sent byte for byte (dot segments, `%2F`, queries),
 * headers as a raw list (duplicates allowed), the body as given. Tests of the gateway's edge need exactly this.
 */
export function rawRequest(options: {
  port: number;
  method: string;
  path: string;
  headers?: [string, string][];
  body?: Buffer | string;
  /** A keep-alive agent, for a client that keeps its connections as partners' SDKs do; default: a connection each. */
  agent?: Agent;
}): Promise<RawResponse> {
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const flat = (options.headers ?? []).flat();
  // With a raw header list Node adds no Host header; HTTP/1.1 servers refuse requests without one.
  if (!(options.headers ?? []).some(([n]) => n.toLowerCase() === 'host'))
    flat.unshift('Host', `127.0.0.1:${options.port}`);
  if (body !== undefined && !(options.headers ?? []).some(([n]) => n.toLowerCase() === 'content-length')) {
    flat.push('Content-Length', String(body.length));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: flat,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

import { type ClientRequest, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { addressNotAllowed, type CallbackAddressPolicy } from './callback-address-policy';

export type PostOutcome =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders }
  | { kind: 'error'; status: number | null; error: string };

export interface PostLimits {
  /** Deadline over the whole exchange: connecting, the response headers and the (bounded) body. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Which addresses may be connected to (checked on the address connected to, after resolution). */
  addresses: CallbackAddressPolicy;
}

/**
 * One POST on a fresh connection. node:http never follows redirects, so a 3xx comes back as it is: the body was
 * signed for this URL only. At most `maxResponseBytes` of the response body are read, then the connection is
 * dropped, so a receiver streaming without end costs a bounded amount of memory and time.
 */
export function postBounded(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  limits: PostLimits,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let req: ClientRequest | undefined;
    let status: number | null = null;
    let settled = false;
    const finish = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'error', status, error: 'timeout' }), limits.timeoutMs);

    try {
      // An address literal is not looked up by the socket: checked here instead.
      const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(literal) !== 0 && !limits.addresses.permits(literal)) throw addressNotAllowed();
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const options = { method: 'POST', headers, agent: false, lookup: limits.addresses.lookup() };
      req = send(url, options, (res) => {
        status = res.statusCode ?? null;
        const complete = (): void =>
          finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers });
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= limits.maxResponseBytes) complete();
        });
        res.on('end', complete);
        res.on('error', (error) => finish({ kind: 'error', status, error: errorCode(error) }));
        // A connection closed before the body ended is not a complete answer; `finish` ignores this after `end`.
        res.on('close', () => finish({ kind: 'error', status, error: 'connection_closed' }));
      });
      req.on('error', (error) => finish({ kind: 'error', status, error: errorCode(error) }));
      req.end(body);
    } catch (error) {
      finish({ kind: 'error', status, error: errorCode(error) });
    }
  });
}

// Only the code: messages may quote a URL or header, and an error must never carry anything secret.
function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code) ? code : 'request_failed';
}

import { connect } from 'node:net';

/**
 * Authentication header lines of the right form with a signature that fails: what the edge checks before it reads a
 * body passes, so the body is read (and the signature then fails).
 */
export const wellFormedAuth = (partnerId = 'p') =>
  `X-Partner-Id: ${partnerId}\r\nX-Timestamp: ${Date.now()}\r\nX-Signature: ${'0'.repeat(64)}\r\n`;

/** One raw HTTP/1.1 exchange on its own socket: what the server sends until it closes, parsed. */
export interface RawExchange {
  status: number;
  headers: Record<string, string>;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
}

/**
 * Opens a socket (from `localAddress`, another loopback address for another client: 127.0.0.0/8 is all loopback),
 * writes each chunk (a number waits that many ms), and reads until the server closes it.
 */
export function exchange(
  port: number,
  chunks: (string | Buffer | number)[],
  localAddress?: string,
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', () => undefined); // a reset after the answer: what was read is the answer
    socket.on('close', () => {
      try {
        resolve({
          ...parseResponse(Buffer.concat(received).toString('utf8')),
          closedAfterMs: Date.now() - started,
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    socket.on('connect', () => {
      void (async () => {
        for (const chunk of chunks) {
          if (socket.destroyed || socket.writableEnded) return;
          if (typeof chunk === 'number') await new Promise((r) => setTimeout(r, chunk).unref());
          else socket.write(chunk);
        }
      })();
    });
  });
}

function parseResponse(text: string): Omit<RawExchange, 'closedAfterMs'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  // Exactly one response: its body is Content-Length bytes and nothing follows.
  expect(Buffer.byteLength(body)).toBe(Number(headers['content-length']));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- whatever JSON the server sent
  return { status: Number(statusLine.split(' ')[1]), headers, json: JSON.parse(body) };
}

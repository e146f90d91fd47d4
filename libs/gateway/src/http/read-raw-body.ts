import { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

const NO_BODY = Buffer.alloc(0);

/** Whether a request carries a body: without Content-Length or Transfer-Encoding it has none (RFC 9112 §6.3). */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/**
 * Reads the exact request bytes, bounded by `limit`: the signature covers these bytes, so they are hashed
 * before any parsing. A declared Content-Length over the limit is refused before reading. `take` is asked for the
 * bytes before they are held (the declared length at once, a chunked body chunk by chunk) and throws to refuse them
 * (the body budget, issue 23).
 */
export async function readRawBody(
  req: IncomingMessage,
  limit: number,
  take: (bytes: number) => void = () => undefined,
): Promise<Buffer> {
  const { 'content-length': length, 'transfer-encoding': chunked } = req.headers;
  if (!declaresBody(req.headers)) return NO_BODY; // nothing to wait for
  const declared = chunked === undefined ? Number(length ?? 0) : 0;
  const tooLarge = () =>
    new ApiError('payload_too_large', `request body exceeds ${limit} bytes`, {
      headers: { Connection: 'close' },
    });
  if (declared > limit) {
    req.resume();
    throw tooLarge();
  }
  take(declared);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    // What is refused is not read: the rest of the body is dropped as it arrives, and the answer closes the connection.
    const refuse = (error: unknown) =>
      settle(() => {
        req.resume();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return refuse(tooLarge());
      try {
        if (size > declared) take(Math.min(chunk.length, size - declared));
      } catch (error) {
        return refuse(error);
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () => settle(() => reject(new Error('the request closed before its body ended')));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

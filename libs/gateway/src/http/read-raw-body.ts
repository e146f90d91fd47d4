import { type IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the exact request bytes, bounded by `limit`: the signature covers these bytes, so they are hashed
 * before any parsing. A declared Content-Length over the limit is refused before reading.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const { 'content-length': length, 'transfer-encoding': chunked } = req.headers;
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): nothing to wait for.
  if (chunked === undefined && (length === undefined || length === '0')) return NO_BODY;
  const declared = Number(length ?? 0);
  const tooLarge = () =>
    new ApiError('payload_too_large', `request body exceeds ${limit} bytes`, {
      headers: { Connection: 'close' },
    });
  if (declared > limit) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

import { type IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

/**
 * Reads the exact request bytes, bounded by `limit`: the signature covers these bytes, so they are hashed
 * before any parsing. A declared Content-Length over the limit is refused before reading.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
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

import { type IncomingMessage } from 'node:http';

/**
 * The request body exactly as received, before any parsing: the signature covers these bytes. Resolves
 * `'too_large'` as soon as the body is known to exceed `maxBytes`, without buffering the rest.
 */
export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return resolve('too_large');
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      done = true;
      req.off('data', onData);
      req.pause();
      resolve('too_large');
    };
    req.on('data', onData);
    req.on('end', () => {
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!done) reject(new Error('The request was aborted before its body ended'));
    });
  });
}

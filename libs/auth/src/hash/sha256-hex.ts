import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256. A string is hashed as its UTF-8 bytes, which is what goes on the wire. */
export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 of zero bytes: the body hash of every GET and of an empty POST body (spec, signing rule 3). */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

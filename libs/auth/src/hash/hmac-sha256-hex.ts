import { createHmac } from 'node:crypto';

/** Lowercase hex HMAC-SHA256. Strings (secret and data) are used as their UTF-8 bytes. */
export function hmacSha256Hex(secret: Buffer | string, data: Buffer | string): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

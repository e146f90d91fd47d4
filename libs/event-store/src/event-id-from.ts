import { createHash } from 'node:crypto';

/**
 * A UUID-shaped event id derived from its parts (the same parts give the same id). Used where a retry could append
 * the same fact twice: re-appending an event with the id already in the stream is a no-op (ARCHITECTURE.md).
 */
export function eventIdFrom(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\n'), 'utf8').digest('hex');
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

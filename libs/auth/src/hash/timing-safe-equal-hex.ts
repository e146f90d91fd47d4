import { timingSafeEqual } from 'node:crypto';

// Whole bytes only: an odd digit count or the empty string is never a digest.
const HEX_BYTES = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Compares two hex digests in constant time. Returns false (never throws) on a length mismatch or on anything that
 * is not hex, so a caller can pass an attacker-controlled header straight in. The length check leaks only the
 * length, which is public (64 for SHA-256). Digits compare by value, so case is ignored: callers that require
 * lowercase (the request verifier does) check the format first.
 */
export function timingSafeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (a.length !== b.length || !HEX_BYTES.test(a) || !HEX_BYTES.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

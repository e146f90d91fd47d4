import { bytesToHex, type Hex, hexToBytes } from 'viem';

const HALF = 16;

/**
 * The order's `random`, as swap-sdk src/utils.ts `createSwiftRandomKey` builds it since v12.0.0 (2025-11-21):
 * the quoteId as hex, left-padded to 16 bytes (ethers `zeroPadValue`), then the quote's `memoHex` padded the same
 * way or, without one, the first 16 of 32 random bytes. Whatever makes that throw in the SDK (no quoteId, or an
 * id or memo longer than 16 bytes) gives all 32 random bytes instead, as its `catch` does.
 *
 * The id is decoded as the SDK's `Buffer.from(text, 'hex')` decodes it: pairs of hex digits up to the first pair
 * that is not one, so a UUID-shaped id contributes only its first 4 bytes. This is the SDK's behaviour, kept.
 */
export function swiftRandomKey(
  quote: { quoteId: string | null; memoHex: string | null },
  random32: Hex,
): Hex {
  const random = hexToBytes(random32);
  if (random.length !== 32) throw new RangeError('random32 must be 32 bytes');
  if (quote.quoteId === null) return random32;
  const id = leftPadded16(leadingHexBytes(quote.quoteId));
  const tail = quote.memoHex ? leftPadded16(leadingHexBytes(quote.memoHex)) : random.slice(0, HALF);
  if (id === null || tail === null) return random32;
  return bytesToHex(new Uint8Array([...id, ...tail]));
}

/**
 * `Buffer.from(text without 0x, 'hex')` as the SDK runs it in Node: its `import { Buffer } from 'buffer'` is the
 * core module there (the SDK does not depend on the npm `buffer` package, whose decoder reads a UUID differently).
 */
function leadingHexBytes(text: string): Uint8Array {
  return Buffer.from(text.startsWith('0x') ? text.slice(2) : text, 'hex');
}

/** ethers `zeroPadValue(bytes, 16)`: left-padded, and an error (null here) when longer than 16 bytes. */
function leftPadded16(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length > HALF) return null;
  const padded = new Uint8Array(HALF);
  padded.set(bytes, HALF - bytes.length);
  return padded;
}

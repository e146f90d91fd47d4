import { type Address } from 'viem';

/** Providers echo addresses in any case; compare them as 20-byte values. */
export function sameAddress(a: Address, b: Address): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

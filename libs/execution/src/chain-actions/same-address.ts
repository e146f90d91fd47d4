/** Addresses arrive in any case (checksummed, lower); compare them as 20-byte values. */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

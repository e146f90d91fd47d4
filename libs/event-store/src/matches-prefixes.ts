/** Stream filter of reads and subscriptions: no prefixes (or an empty list) means every stream. */
export function matchesPrefixes(streamId: string, prefixes: readonly string[] | undefined): boolean {
  if (prefixes === undefined || prefixes.length === 0) return true;
  return prefixes.some((prefix) => streamId.startsWith(prefix));
}

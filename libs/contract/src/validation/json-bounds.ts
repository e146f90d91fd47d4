/**
 * Bounds on a request body's shape (review L2): opaque objects (`walletCapabilities`, `quoteResults`) are stored and
 * sent on as they came, and a body nested 60 000 deep makes `JSON.stringify` throw on the bus, after the nonce was
 * bound. Real bodies are a few levels deep and hold hundreds of values.
 */
export const JSON_LIMITS = { maxDepth: 32, maxValues: 20_000 } as const;

/** Why `value` is out of bounds (too deep, too many values), or null; walks it without recursion. */
export function jsonBoundsProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (++values > JSON_LIMITS.maxValues) return `holds more than ${JSON_LIMITS.maxValues} values`;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > JSON_LIMITS.maxDepth) return `is nested deeper than ${JSON_LIMITS.maxDepth} levels`;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return null;
}

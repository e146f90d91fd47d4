/** One place two JSON values disagree: its path (`perChainStatus[0].legs[1].settledAmount`) and both values. */
export interface Difference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Every leaf where `actual` differs from `expected`, in document order. Values are compared as JSON: key order does
 * not matter, `undefined` and a missing key are the same; a key only one side has is a difference at that key.
 */
export function jsonDifferences(expected: unknown, actual: unknown, path = ''): Difference[] {
  if (Object.is(expected, actual)) return [];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    return Array.from({ length }, (_, i) => jsonDifferences(expected[i], actual[i], `${path}[${i}]`)).flat();
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return keys.flatMap((key) =>
      jsonDifferences(expected[key], actual[key], path === '' ? key : `${path}.${key}`),
    );
  }
  return [{ path: path === '' ? '(whole value)' : path, expected, actual }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * JSON path of a property, `sources[2].amount` style. Keys that are not identifiers (only unknown fields can
 * be) are quoted so the path stays unambiguous.
 */
export function propertyPath(parent: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

export function indexPath(parent: string, index: number | string): string {
  return `${parent}[${index}]`;
}

/** The top-level request field a path belongs to: `sources` for `sources[2].amount`. */
export function topLevelField(path: string): string {
  return path.split(/[.[]/, 1)[0] ?? '';
}

/** Header values by lower-cased name, built from Node's `rawHeaders`, which keeps duplicates apart. */
export interface RawHeaderIndex {
  /** First value of the header; an empty value counts as absent, since no auth header gives `''` a meaning. */
  get(name: string): string | undefined;
  /** The first of `names` that occurs more than once, if any. */
  firstDuplicate(names: readonly string[]): string | undefined;
}

export function indexRawHeaders(rawHeaders: readonly string[]): RawHeaderIndex {
  const values = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    const list = values.get(name);
    if (list) list.push(rawHeaders[i + 1]);
    else values.set(name, [rawHeaders[i + 1]]);
  }
  return {
    get(name) {
      const value = values.get(name.toLowerCase())?.[0];
      return value === '' ? undefined : value;
    },
    firstDuplicate(names) {
      return names.find((name) => (values.get(name.toLowerCase())?.length ?? 0) > 1);
    },
  };
}

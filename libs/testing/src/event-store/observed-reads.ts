/** What observedReads needs of a store (structural, so this helper depends on no store library). */
interface ReadsAll {
  readAll(options?: { after?: string }): unknown;
  readAllPage(options?: { after?: string }): unknown;
}

/**
 * The store, with every readAll's and readAllPage's `after` noted in `reads`: what a restarted worker reads of the global log again
 * (undefined: from the beginning).
 */
export function observedReads<S extends ReadsAll>(store: S): { store: S; reads: (string | undefined)[] } {
  const reads: (string | undefined)[] = [];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readAll' || key === 'readAllPage')
        return (options?: { after?: string }) => {
          reads.push(options?.after);
          return target[key](options);
        };
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, reads };
}

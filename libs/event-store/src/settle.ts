/**
 * Runs synchronous store work (the memory store, better-sqlite3) behind the async port, so a failure
 * always arrives as a rejected promise and never as an exception thrown at the call site.
 */
export function settle<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(work()));
}

/** A source gas estimate that ran out of its time budget. */
export class SourceGasTimeoutError extends Error {
  override readonly name = 'SourceGasTimeoutError';
}

/** `work`, or a SourceGasTimeoutError once `ms` have passed (the work itself is left to finish on its own). */
export function withBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SourceGasTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

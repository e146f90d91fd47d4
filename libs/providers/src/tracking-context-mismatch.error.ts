/** status() was handed another provider's tracking context: a wiring bug, so it is thrown. */
export class TrackingContextMismatchError extends Error {
  override readonly name = 'TrackingContextMismatchError';

  constructor(adapter: string, contextProvider: string) {
    super(`${adapter} adapter cannot track a ${contextProvider} leg`);
  }
}

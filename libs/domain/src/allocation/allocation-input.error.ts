/**
 * allocate() was called with input the request validation should have refused (no targets, a missing USD value
 * in the multi-target form, ...). A programming error upstream, never a partner-facing outcome.
 */
export class AllocationInputError extends Error {
  override readonly name = 'AllocationInputError';
  constructor(readonly detail: string) {
    super(`invalid allocation input: ${detail}`);
  }
}

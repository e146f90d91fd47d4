/**
 * The tracker sent an observation the prepared attempt cannot hold (a slice or chain it does not have, an amount
 * that is not base-10 digits). A programming error upstream, never a partner-facing outcome.
 */
export class AttemptInputError extends Error {
  override readonly name = 'AttemptInputError';
  constructor(readonly detail: string) {
    super(`invalid attempt input: ${detail}`);
  }
}

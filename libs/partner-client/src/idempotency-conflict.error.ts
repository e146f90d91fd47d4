/**
 * An operation id was reused with another body or key. Sending the stored bytes would silently drop the new
 * body (for example new evidence), and sending the new body under the old key breaks the spec's rule "never
 * reuse a key for a different body": so neither is sent.
 */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError' as const;

  constructor(
    readonly operationId: string,
    readonly conflict: 'body' | 'key',
  ) {
    super(
      `Operation ${operationId} was first sent with another ${conflict}; use a new operation id for new content.`,
    );
  }
}

/** A path parameter the API could not have issued: the server refuses escapes, so we never send one. */
export class InvalidResourceIdError extends Error {
  override readonly name = 'InvalidResourceIdError' as const;

  constructor(readonly id: string) {
    super(`Not a valid resource id for a path segment: ${JSON.stringify(id)}`);
  }
}

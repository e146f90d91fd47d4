/** An endpoint that requires an API key was called without one. */
export class ApiKeyMissingError extends Error {
  override readonly name = 'ApiKeyMissingError';
  constructor(readonly header: string) {
    super(`missing ${header} header`);
  }
}

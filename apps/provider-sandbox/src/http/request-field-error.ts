/** A missing or malformed request field; each dialect answers it with its own 400 body. */
export class RequestFieldError extends Error {
  override readonly name = 'RequestFieldError';
  constructor(
    readonly field: string,
    readonly reason: 'missing' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

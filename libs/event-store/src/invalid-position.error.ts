/** A position string this store cannot parse (for example one produced by another adapter). */
export class InvalidPositionError extends Error {
  override readonly name = 'InvalidPositionError';
  constructor(readonly position: string) {
    super(`invalid event store position: ${JSON.stringify(position)}`);
  }
}

/** The explorer has not indexed a swap with this source transaction (or order) hash. */
export class SwapNotFoundError extends Error {
  override readonly name = 'SwapNotFoundError';
  constructor(readonly hash: string) {
    super(`swap ${hash} not found`);
  }
}

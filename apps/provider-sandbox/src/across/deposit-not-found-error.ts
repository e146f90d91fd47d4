/** The Across indexer has no deposit for the query (not yet indexed, or never made). */
export class DepositNotFoundError extends Error {
  override readonly name = 'DepositNotFoundError';
  constructor() {
    super('Deposit not found given the provided constraints');
  }
}

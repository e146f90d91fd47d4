/**
 * A 400 from the Across indexer: `{error, message}` with the exception's class name, as
 * across-protocol/indexer packages/indexer-api/src/error-handler.ts serialises IndexerHTTPError and StructError.
 */
export class IndexerQueryError extends Error {
  override readonly name = 'IndexerQueryError';
  constructor(
    readonly errorName: 'IndexParamOutOfRangeException' | 'ValidationError',
    message: string,
  ) {
    super(message);
  }
}

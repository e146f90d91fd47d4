/** What a POST operation sends on every try: one key and the exact serialized body. */
export interface IdempotencyRecord {
  key: string;
  /** The exact JSON text sent; its UTF-8 bytes are what is hashed and signed. */
  body: string;
}

/**
 * Where the client persists a POST's key and body before sending (spec, Idempotency rule 1), so that a retry,
 * even from another process after a crash or a timeout, resends the same bytes under the same key.
 */
export interface IdempotencyStore {
  get(operationId: string): Promise<IdempotencyRecord | undefined>;
  put(operationId: string, record: IdempotencyRecord): Promise<void>;
  delete(operationId: string): Promise<void>;
}

/**
 * No HTTP response after every try (connection refused or dropped, time-out). For a POST it names the operation
 * and key: the request may have been processed, so resume with the same `operationId` and the key and bytes are
 * reused (spec, Idempotency rule 2).
 */
export class PartnerClientError extends Error {
  override readonly name = 'PartnerClientError' as const;

  constructor(
    message: string,
    readonly details: {
      method: string;
      path: string;
      tries: number;
      operationId?: string;
      idempotencyKey?: string;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

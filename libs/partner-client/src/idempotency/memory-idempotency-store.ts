import { type IdempotencyRecord, type IdempotencyStore } from './idempotency-store';

/** Per-process store: enough for automatic retries within one run, lost on exit. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();

  get(operationId: string): Promise<IdempotencyRecord | undefined> {
    const record = this.records.get(operationId);
    return Promise.resolve(record && { ...record });
  }

  put(operationId: string, record: IdempotencyRecord): Promise<void> {
    this.records.set(operationId, { key: record.key, body: record.body });
    return Promise.resolve();
  }

  delete(operationId: string): Promise<void> {
    this.records.delete(operationId);
    return Promise.resolve();
  }
}

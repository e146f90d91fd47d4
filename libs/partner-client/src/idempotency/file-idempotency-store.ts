import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type IdempotencyRecord, type IdempotencyStore } from './idempotency-store';

interface StoreFile {
  version: 1;
  operations: Record<string, IdempotencyRecord>;
}

/**
 * Keeps records in one JSON file so they survive the process (a CLI re-run after a timeout resends the same key
 * and bytes). Every change is written to a temporary file, flushed to disk and renamed over the old one, so a
 * crash leaves either the old or the new file, never a torn one. Changes within one instance are serialised;
 * two processes writing at the same moment may lose one record, which only costs a fresh key later.
 */
export class FileIdempotencyStore implements IdempotencyStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  async get(operationId: string): Promise<IdempotencyRecord | undefined> {
    const record = (await this.read()).operations[operationId];
    return record && { ...record };
  }

  put(operationId: string, record: IdempotencyRecord): Promise<void> {
    return this.update((operations) => {
      operations[operationId] = { key: record.key, body: record.body };
    });
  }

  delete(operationId: string): Promise<void> {
    return this.update((operations) => {
      delete operations[operationId];
    });
  }

  private update(change: (operations: Record<string, IdempotencyRecord>) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const file = await this.read();
      change(file.operations);
      await this.write(file);
    });
    // A failed write must not wedge later ones; the caller still sees this failure through `next`.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, operations: {} };
      throw error;
    }
    // A corrupt file throws rather than being treated as empty: that would hand out fresh keys for old operations.
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    return { version: 1, operations: { ...parsed.operations } };
  }

  private async write(file: StoreFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

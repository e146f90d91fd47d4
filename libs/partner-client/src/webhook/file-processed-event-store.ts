import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type ProcessedEventStore } from './processed-event-store';

/**
 * An append-only file of processed event ids, one per line, flushed to disk (fsync) before `add` resolves. The ids
 * are read once per instance and kept in memory, so one process should own the file. A crash in the middle of an
 * append leaves an id without its newline; that fragment is not counted (the event was not acknowledged, so it
 * comes again) and the next append starts on a fresh line.
 */
export class FileProcessedEventStore implements ProcessedEventStore {
  private ids: Promise<Set<string>> | undefined;
  private tornTail = false;
  private fileMissing = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  async has(eventId: string): Promise<boolean> {
    return (await this.load()).has(eventId);
  }

  add(eventId: string): Promise<void> {
    if (eventId === '' || /[\r\n]/.test(eventId)) {
      return Promise.reject(new TypeError('An event id must be non-empty and on one line'));
    }
    const next = this.queue.then(async () => {
      const ids = await this.load();
      if (ids.has(eventId)) return;
      await this.append(`${this.tornTail ? '\n' : ''}${eventId}\n`);
      this.tornTail = false;
      ids.add(eventId);
    });
    // A failed append must not wedge later ones; the caller still sees this failure through `next`.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async append(text: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, 'a', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (this.fileMissing) {
      await syncDirectory(dirname(this.path));
      this.fileMissing = false;
    }
  }

  private load(): Promise<Set<string>> {
    this.ids ??= this.read().catch((error: unknown) => {
      this.ids = undefined;
      throw error;
    });
    return this.ids;
  }

  private async read(): Promise<Set<string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.fileMissing = true;
      return new Set();
    }
    const lines = text.split('\n');
    // What follows the last newline: empty after a clean append, a fragment after a torn one.
    this.tornTail = lines.pop() !== '';
    return new Set(lines.filter((line) => line !== ''));
  }
}

// A new file's directory entry is durable only once the directory is synced. Not every platform can open a
// directory for that (Windows cannot), and there the file's own fsync is the best on offer.
async function syncDirectory(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // see above
  }
}

import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { type IdempotencyRecord, type IdempotencyStore } from './idempotency-store';

interface StoreFile {
  version: 1;
  operations: Record<string, IdempotencyRecord>;
}

/**
 * Keeps records in one JSON file so they survive the process (a CLI re-run after a timeout resends the same key
 * and bytes). Every change is written to a temporary file, flushed to disk and renamed over the old one, so a
 * crash leaves either the old or the new file, never a torn one. Changes within one instance are serialised, and
 * across processes (two CLI runs, two workers sharing the file) each change reads and writes the file while holding
 * a lock file beside it (`<path>.lock`, created exclusively), so no writer overwrites a record another has just
 * put: a lost record would hand a retried request a fresh key, and the service would take it for a new one. A lock
 * left by a process that died is taken over (its process is gone on this host, or it is older than
 * `staleLockMs`); a lock held for longer than `lockTimeoutMs` fails the change with an error naming the file.
 * The Go SDK's file store takes the same lock on the same file format.
 */
export class FileIdempotencyStore implements IdempotencyStore {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly lockTimeoutMs: number;
  private readonly staleLockMs: number;

  constructor(
    private readonly path: string,
    options: { lockTimeoutMs?: number; staleLockMs?: number } = {},
  ) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
    this.staleLockMs = options.staleLockMs ?? 30_000;
  }

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
    const next = this.queue.then(() =>
      this.locked(async () => {
        const file = await this.read();
        change(file.operations);
        await this.write(file);
      }),
    );
    // A failed write must not wedge later ones; the caller still sees this failure through `next`.
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `run` holding the store's lock file, taken from other processes (and other instances) on this file. */
  private async locked(run: () => Promise<void>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const lockPath = `${this.path}.lock`;
    const owner = JSON.stringify({
      pid: process.pid,
      host: hostname(),
      token: randomBytes(8).toString('hex'),
    });
    const giveUpAt = Date.now() + this.lockTimeoutMs;
    for (;;) {
      try {
        const handle = await open(lockPath, 'wx', 0o600);
        try {
          await handle.writeFile(owner, 'utf8');
        } finally {
          await handle.close();
        }
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readLock(lockPath);
      if (holder && this.isStale(holder)) {
        // Taken over only if it is still the lock judged stale (another process may have taken it over first).
        if ((await readLock(lockPath))?.text === holder.text) await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() >= giveUpAt) {
        throw new Error(
          `the idempotency store ${this.path} stayed locked for ${this.lockTimeoutMs} ms by ${holder?.text ?? 'another process'}; ` +
            `remove ${lockPath} if no process is writing it`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.floor(Math.random() * 8)));
    }
    try {
      await run();
    } finally {
      if ((await readLock(lockPath))?.text === owner) await rm(lockPath, { force: true });
    }
  }

  private isStale(lock: { text: string; ageMs: number }): boolean {
    if (lock.ageMs > this.staleLockMs) return true;
    let holder: { pid?: unknown; host?: unknown };
    try {
      holder = JSON.parse(lock.text) as { pid?: unknown; host?: unknown };
    } catch {
      // Created, not yet written (or torn by a crash between the two): only its age can tell.
      return false;
    }
    if (holder.host !== hostname() || typeof holder.pid !== 'number') return false;
    try {
      process.kill(holder.pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
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

/** The lock file's text and age, or undefined when there is none (released meanwhile). */
async function readLock(lockPath: string): Promise<{ text: string; ageMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { text, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ReadModelDb } from './projection';

/**
 * Read-model snapshots: how a brand-new replica serves from its read models within seconds whatever the history
 * (docs/adr/0007-read-models-out-of-the-heap.md, "A new replica"). Replicas on EventStoreDB each keep their read
 * models in a file of their own (checkpointed, so a restart resumes); a replica whose file is new would otherwise
 * project the whole log first. With a snapshot directory shared by the replicas (READ_MODELS_SNAPSHOT_DIR):
 *
 * - every so often one replica writes a consistent copy of its read-model file there (`VACUUM INTO`, in a worker
 *   thread with a read-only connection of its own: one read transaction, so the copy holds each read model with the
 *   checkpoint it was written with; the replica's own writes go on meanwhile, WAL);
 * - a replica that starts without a read-model file copies the newest snapshot in place before opening it, and its
 *   projection runners resume from the snapshot's checkpoints: they read only what was recorded since.
 *
 * A snapshot is named by when it was taken (`read-models-<UTC yyyymmddThhmmss.sss>-<instance>.sqlite`) and appears
 * only once complete (written under a `.tmp-` name, then renamed), so a reader never copies half of one.
 */

const PREFIX = 'read-models-';
const SUFFIX = '.sqlite';
const TMP_PREFIX = '.tmp-';
/** Snapshots kept after a new one is written (the newest first); older ones are deleted. */
const KEEP = 2;
/** A `.tmp-` file older than this was left by a replica that died while writing it. */
const STALE_TMP_MS = 24 * 60 * 60 * 1000;

export interface SnapshotLogger {
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

export interface ReadModelSnapshot {
  file: string;
  /** When it was taken (from its name), ms since the epoch. */
  takenAt: number;
}

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('Z', '');
const fromStamp = (s: string) =>
  Date.parse(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 11)}:${s.slice(11, 13)}:${s.slice(13)}Z`);

/** The complete snapshots in `dir`, newest first. */
export function listReadModelSnapshots(dir: string): ReadModelSnapshot[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX))
    .map((name) => ({
      file: join(dir, name),
      takenAt: fromStamp(name.slice(PREFIX.length, PREFIX.length + 'yyyymmddThhmmss.sss'.length)),
    }))
    .filter((s) => Number.isFinite(s.takenAt))
    .sort((a, b) => b.takenAt - a.takenAt || basename(b.file).localeCompare(basename(a.file)));
}

/**
 * Before the read-model file is opened: when it does not exist yet and `snapshotDir` holds a snapshot, copies the
 * newest one in its place (under a temporary name, then renamed: a start that dies half-way leaves no file, and the
 * next start copies again). Returns the snapshot used, or null (a file already there is never replaced: it resumes
 * from its own checkpoints).
 */
export function restoreReadModelSnapshot(file: string, snapshotDir: string): ReadModelSnapshot | null {
  const target = resolve(file);
  if (existsSync(target)) return null;
  const newest = listReadModelSnapshots(snapshotDir)[0];
  if (newest === undefined) return null;
  mkdirSync(resolve(target, '..'), { recursive: true });
  const partial = `${target}.restoring`;
  // A copy-on-write clone where the filesystem has one (XFS, Btrfs: instant), else a copy (about 6 s for the
  // 1.7 GB of 1 000 000 attempts on the 2-core dev machine's disk).
  copyFileSync(newest.file, partial, constants.COPYFILE_FICLONE);
  renameSync(partial, target);
  return newest;
}

export interface ReadModelSnapshotterOptions {
  /** The shared directory. */
  dir: string;
  /** A new snapshot once the newest one in `dir` (whoever wrote it) is this old. */
  everyMs: number;
  /** Names this replica in the snapshot's name. */
  instanceId: string;
  logger: SnapshotLogger;
  now?: () => number;
}

/** The code of the worker thread that writes a snapshot: plain JavaScript, so it runs under any loader. */
const VACUUM_INTO = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.source, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
} finally {
  db.close();
}
parentPort.postMessage('done');
`;

/**
 * Writes a snapshot of one read-model file into the shared directory when the newest there is older than `everyMs`:
 * whichever replica finds it due first writes it (two at once write two good snapshots; the older is deleted later).
 * Checked every `everyMs / 10` (at most a minute), with jitter, so replicas seldom race.
 */
export class ReadModelSnapshotter {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<ReadModelSnapshot | null> | null = null;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly db: ReadModelDb,
    private readonly options: ReadModelSnapshotterOptions,
  ) {
    if (db.memory) throw new Error('read-model snapshots need a read-model file, not an in-memory database');
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const checkMs = Math.min(60_000, Math.max(1_000, Math.floor(this.options.everyMs / 10)));
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        () => {
          this.snapshotIfDue()
            .catch((error: unknown) =>
              this.options.logger.warn('read-model snapshot failed', { error: (error as Error).message }),
            )
            .finally(next);
        },
        checkMs + Math.floor(Math.random() * checkMs),
      );
      this.timer.unref();
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** A snapshot now if the newest is `everyMs` old (or there is none); the one written, or null. */
  async snapshotIfDue(): Promise<ReadModelSnapshot | null> {
    const newest = listReadModelSnapshots(this.options.dir)[0];
    if (newest !== undefined && this.now() - newest.takenAt < this.options.everyMs) return null;
    return this.snapshot();
  }

  /** Writes a snapshot now (one at a time per process); the one written. */
  snapshot(): Promise<ReadModelSnapshot> {
    if (this.running) return this.running.then((s) => s ?? this.snapshot());
    const run = this.write().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async write(): Promise<ReadModelSnapshot> {
    const { dir, instanceId, logger } = this.options;
    mkdirSync(dir, { recursive: true });
    const takenAt = this.now();
    const name = `${PREFIX}${stamp(takenAt)}-${instanceId.replace(/[^A-Za-z0-9._-]/g, '_')}${SUFFIX}`;
    const tmp = join(dir, `${TMP_PREFIX}${name}`);
    const started = this.now();
    try {
      await vacuumInto(this.db.name, tmp);
      renameSync(tmp, join(dir, name));
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
    const snapshot = { file: join(dir, name), takenAt };
    logger.info('read-model snapshot written', {
      file: snapshot.file,
      bytes: statSync(snapshot.file).size,
      ms: this.now() - started,
    });
    this.prune();
    return snapshot;
  }

  private prune(): void {
    const { dir } = this.options;
    for (const old of listReadModelSnapshots(dir).slice(KEEP)) rmSync(old.file, { force: true });
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(TMP_PREFIX)) continue;
      const file = join(dir, name);
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat && this.now() - stat.mtimeMs > STALE_TMP_MS) rmSync(file, { force: true });
    }
  }
}

/** `VACUUM INTO target` of the database file `source`, in a worker thread (the event loop goes on meanwhile). */
function vacuumInto(source: string, target: string): Promise<void> {
  return new Promise((done, fail) => {
    const worker = new Worker(VACUUM_INTO, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), source, target },
    });
    let finished = false;
    worker.once('message', () => {
      finished = true;
      done();
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (!finished) fail(new Error(`the snapshot worker exited with code ${code}`));
    });
  });
}

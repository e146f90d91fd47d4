import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../../../../..');

export interface ChildWriter {
  /** Resolves once the child opened the store. */
  ready: Promise<void>;
  /** Lets the child start appending. */
  go(): void;
  /** Resolves with the child's conflict count when it exits cleanly; rejects with its stderr otherwise. */
  done: Promise<number>;
}

/** Starts append-from-child.ts in a real second Node process on the same SQLite file. */
export function startChildWriter(file: string, streamId: string, count: number): ChildWriter {
  const script = join(__dirname, 'append-from-child.ts');
  const child = spawn(
    process.execPath,
    [join(ROOT, 'tools/run-ts.js'), script, file, streamId, String(count)],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  let conflicts = 0;
  const ready = new Promise<void>((resolveReady, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') resolveReady();
      if (line.startsWith('done ')) conflicts = Number(line.slice('done '.length));
    });
    child.on('close', () => reject(new Error(`child exited before it was ready: ${stderr}`)));
  });
  const done = new Promise<number>((resolveDone, reject) => {
    child.on('close', (code) =>
      code === 0 ? resolveDone(conflicts) : reject(new Error(`child failed (${code}): ${stderr}`)),
    );
  });
  // Awaited after `ready`; without this a child dying early would also surface as an unhandled rejection.
  done.catch(() => undefined);
  return { ready, done, go: () => child.stdin.end('go\n') };
}

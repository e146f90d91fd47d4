import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type RaceOrder } from './race';

const ROOT = resolve(__dirname, '../../../../../..');

export interface ChildRacer {
  /** Resolves once the child opened the records. */
  ready: Promise<void>;
  /** Lets the child start racing. */
  go(): void;
  /** Resolves with the child's results when it exits cleanly; rejects with its stderr otherwise. */
  done: Promise<unknown[]>;
}

/** Starts race-from-child.ts in a real second Node process on the same SQLite file. */
export function startChildRacer(file: string, order: RaceOrder): ChildRacer {
  const script = join(__dirname, 'race-from-child.ts');
  const args = [join(ROOT, 'tools/run-ts.js'), script, file, order.what, order.racer, String(order.count)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  let results: unknown[] = [];
  const ready = new Promise<void>((resolveReady, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') resolveReady();
      if (line.startsWith('done ')) results = JSON.parse(line.slice('done '.length)) as unknown[];
    });
    child.on('close', () => reject(new Error(`child exited before it was ready: ${stderr}`)));
  });
  const done = new Promise<unknown[]>((resolveDone, reject) => {
    child.on('close', (code) =>
      code === 0 ? resolveDone(results) : reject(new Error(`child failed (${code}): ${stderr}`)),
    );
  });
  // Awaited after `ready`; without this a child dying early would also surface as an unhandled rejection.
  done.catch(() => undefined);
  return { ready, done, go: () => child.stdin.end('go\n') };
}

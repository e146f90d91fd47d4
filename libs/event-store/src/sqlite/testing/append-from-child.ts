// A second process on the same SQLite file, for the multi-process tests. Usage:
//   node tools/run-ts.js libs/event-store/src/sqlite/testing/append-from-child.ts <file> <streamId> <count>
// Prints "ready" once the store is open, waits for "go" on stdin (so both processes start writing together),
// appends <count> events { writer: 'child', n } one by one with appendWithRetry, then prints "done <conflicts>".
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { SqliteEventStore } from '../sqlite-event-store.adapter';
import { appendWithRetry } from './append-with-retry';

async function main(): Promise<void> {
  const [file, streamId, count] = process.argv.slice(2);
  if (file === undefined || streamId === undefined || count === undefined)
    throw new Error('usage: <file> <streamId> <count>');
  const store = SqliteEventStore.open({ file });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() !== 'go') return;
      lines.close();
      resolve();
    });
  });
  let conflicts = 0;
  for (let n = 0; n < Number(count); n++) {
    conflicts += await appendWithRetry(store, streamId, {
      id: randomUUID(),
      type: 'Appended',
      data: { writer: 'child', n },
    });
  }
  await store.close();
  process.stdout.write(`done ${conflicts}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

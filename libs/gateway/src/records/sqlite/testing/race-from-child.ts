// A racer in its own Node process on the same records file, for the multi-process tests. Usage:
//   node tools/run-ts.js libs/gateway/src/records/sqlite/testing/race-from-child.ts <file> <nonces|keys> <racer> <count>
// Prints "ready" once the records are open, waits for "go" on stdin (so every racer starts together), runs its
// part of the race, then prints "done <JSON results>".
import { createInterface } from 'node:readline';
import { openSqliteRequestRecords } from '../sqlite-request-records';
import { race } from './race';

async function main(): Promise<void> {
  const [file, what, racer, count] = process.argv.slice(2);
  if (
    file === undefined ||
    (what !== 'nonces' && what !== 'keys') ||
    racer === undefined ||
    count === undefined
  )
    throw new Error('usage: <file> <nonces|keys> <racer> <count>');
  const records = openSqliteRequestRecords({ file, idempotencyRetentionSeconds: 24 * 3600 });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() !== 'go') return;
      lines.close();
      resolve();
    });
  });
  const results = await race(records, { what, racer, count: Number(count) });
  await records.close();
  process.stdout.write(`done ${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

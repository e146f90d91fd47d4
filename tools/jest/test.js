#!/usr/bin/env node
// `npm test`: every suite, in two phases on this repository's two-core machines (jest's default there is one suite
// at a time, 26 minutes): first all suites but the serial ones two at a time, then the serial ones
// (tools/jest/serial-suites.js) alone, one after another. Exits non-zero when either phase fails and ends with one
// combined "tests: N passed, N failed, N skipped" line (the line tools/jest/summary-reporter.js prints per run).
// With arguments (`npm test -- <path or jest option>…`) it is plain `jest <arguments>`.
const { spawn } = require('node:child_process');
const path = require('node:path');
const serial = require('./serial-suites');

const jest = require.resolve('jest/bin/jest');
const cwd = path.join(__dirname, '..', '..');

function run(args) {
  return new Promise((resolve) => {
    let tail = '';
    const child = spawn(process.execPath, [jest, ...args], { cwd, stdio: ['inherit', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    child.on('close', (code, signal) => {
      const counts = /tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(tail);
      resolve({ code: code ?? (signal ? 1 : 0), counts: counts ? counts.slice(1).map(Number) : null });
    });
  });
}

async function main() {
  const extra = process.argv.slice(2);
  if (extra.length > 0) {
    process.exitCode = (await run(extra)).code;
    return;
  }
  const started = Date.now();
  const parallel = await run(['--maxWorkers=2', '--testPathIgnorePatterns', '/node_modules/', ...serial]);
  const alone = await run(['--runInBand', '--testPathPatterns', ...serial]);
  const sum = [0, 1, 2].map((i) => (parallel.counts?.[i] ?? 0) + (alone.counts?.[i] ?? 0));
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `\nnpm test: two at a time, then ${serial.length} serial suites alone; ${seconds} s in all\n` +
      `tests: ${sum[0]} passed, ${sum[1]} failed, ${sum[2]} skipped\n`,
  );
  const failed = parallel.code !== 0 || alone.code !== 0 || parallel.counts === null || alone.counts === null;
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});

#!/usr/bin/env node
// `npm test`: every suite, in two phases on this repository's two-core machines (jest's default there is one suite
// at a time, 26 minutes): first all suites but the serial ones two at a time, then the serial ones
// (tools/jest/serial-suites.js) alone, one after another; a suite that failed beside another runs once more alone
// (tools/jest/run-all.js). Exits non-zero when a suite fails alone.
// With arguments (`npm test -- <path or jest option>…`) it is plain `jest <arguments>`.
const path = require('node:path');
const { run, runAll } = require('./run-all');
const serial = require('./serial-suites');

const cwd = path.join(__dirname, '..', '..');

async function main() {
  const extra = process.argv.slice(2);
  process.exitCode = extra.length > 0 ? (await run(cwd, extra)).code : await runAll({ cwd, serial });
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});

#!/usr/bin/env node
// Runs a TypeScript entry point without a build step (tools/register-ts.js: SWC with a compile cache, `@svc/*` paths).
const path = require('node:path');
const { runOnProjectNode } = require('./project-node');
const { registerTypeScript } = require('./register-ts');

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node tools/run-ts.js <entry.ts> [args...]\n');
  process.exit(2);
}
if (!runOnProjectNode()) {
  registerTypeScript();
  process.argv.splice(1, 1); // the entry sees its own argv as if run directly
  require(path.resolve(entry));
}

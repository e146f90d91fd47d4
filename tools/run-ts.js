#!/usr/bin/env node
// Runs a TypeScript entry point without a build step: SWC compiles on the fly (keeping decorator
// metadata, which NestJS dependency injection needs) and tsconfig paths resolve `@svc/*` imports.
process.env.TS_NODE_PROJECT =
  process.env.TS_NODE_PROJECT || require('node:path').join(__dirname, '..', 'tsconfig.base.json');
process.env.SWC_NODE_PROJECT = process.env.TS_NODE_PROJECT;
require('@swc-node/register');
require('tsconfig-paths').register({
  baseUrl: require('node:path').join(__dirname, '..'),
  paths: require('../tsconfig.base.json').compilerOptions.paths,
});
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node tools/run-ts.js <entry.ts> [args...]\n');
  process.exit(2);
}
process.argv.splice(1, 1); // the entry sees its own argv as if run directly
require(require('node:path').resolve(entry));

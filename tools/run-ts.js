#!/usr/bin/env node
// Runs a TypeScript entry point without a build step: SWC compiles each .ts file as it is required, with the options
// the tests compile with (tools/swc-options.js: decorator metadata kept, which NestJS dependency injection needs),
// and tsconfig paths resolve `@svc/*` imports. @swc/core is used directly: @swc-node/register also loads the
// TypeScript compiler, about 60 MB more in every process (measured: RSS after boot 196 -> see README "Benchmarks").
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const { SWC_OPTIONS } = require('./swc-options');

const root = path.join(__dirname, '..');
process.setSourceMapsEnabled(true); // stack traces name the .ts lines (the maps are inline)
require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...SWC_OPTIONS, filename, swcrc: false, configFile: false });
  module._compile(code, filename);
};
require('tsconfig-paths').register({
  baseUrl: root,
  paths: require('../tsconfig.base.json').compilerOptions.paths,
});

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node tools/run-ts.js <entry.ts> [args...]\n');
  process.exit(2);
}
process.argv.splice(1, 1); // the entry sees its own argv as if run directly
require(path.resolve(entry));

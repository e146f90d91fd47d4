// Lets Node require this repository's TypeScript without a build step, for tools/run-ts.js and the CLI launchers in
// tools/bin/: SWC compiles each .ts file as it is required, with the options the tests compile with
// (tools/swc-options.js: decorator metadata kept, which NestJS dependency injection needs), and `@svc/*` imports
// resolve through tsconfig.base.json's paths. @swc/core is used directly: @swc-node/register also loads the
// TypeScript compiler, about 60 MB more in every process.
//
// Compiled output is cached in node_modules/.cache/run-ts/, one file per (SWC version, options, file name, source):
// a file compiles once, and a process whose files are all cached never loads SWC's native binding (a CLI call then
// costs Node's start and the modules it loads, not their compilation). An edited file gets a new entry; nothing is
// ever invalidated in place. Delete the folder to reclaim its space. A cache that cannot be written (a read-only
// node_modules) is skipped silently: the file is compiled every time, as before.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { SWC_OPTIONS } = require('./swc-options');

const root = path.join(__dirname, '..');
const CACHE_DIR = path.join(root, 'node_modules', '.cache', 'run-ts');

let registered = false;

function registerTypeScript() {
  if (registered) return;
  registered = true;
  process.setSourceMapsEnabled(true); // stack traces name the .ts lines (the maps are inline)
  const salt = cacheSalt();
  require.extensions['.ts'] = function compileTypeScript(module, filename) {
    module._compile(compiled(filename, salt), filename);
  };
  resolveSvcPaths(require('../tsconfig.base.json').compilerOptions.paths);
}

/** What every cache key starts with: the compiler's version and the options, so a change of either misses. */
function cacheSalt() {
  const swcVersion = JSON.parse(
    fs.readFileSync(require.resolve('@swc/core/package.json', { paths: [root] }), 'utf8'),
  ).version;
  return `${swcVersion}\0${JSON.stringify(SWC_OPTIONS)}\0`;
}

function compiled(filename, salt) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto
    .createHash('sha256')
    .update(salt)
    .update(filename)
    .update('\0')
    .update(source)
    .digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const { transformSync } = require('@swc/core'); // loaded on the first miss only
  const { code } = transformSync(source, { ...SWC_OPTIONS, filename, swcrc: false, configFile: false });
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: a process reading the entry at the same time sees all of it or none.
    const partial = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, cached);
  } catch {
    // not writable: compiled again next time
  }
  return code;
}

/**
 * `@svc/<lib>` → the file tsconfig.base.json names (each path there is exact: one name, one file). A name with a
 * wildcard, if one is ever added, goes through tsconfig-paths as before.
 */
function resolveSvcPaths(paths) {
  const exact = new Map();
  for (const [name, [target]] of Object.entries(paths)) {
    if (name.includes('*')) {
      require('tsconfig-paths').register({ baseUrl: root, paths });
      return;
    }
    exact.set(name, path.join(root, target));
  }
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveSvc(request, ...rest) {
    const target = exact.get(request);
    return resolveFilename.call(this, target ?? request, ...rest);
  };
}

module.exports = { registerTypeScript, CACHE_DIR };

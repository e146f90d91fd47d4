#!/usr/bin/env node
// `node tools/dev/supervise.js <entry.ts> [args...]`: runs a dev environment (npm start, npm run distributed, the
// example partner backend) so that it stops as one thing, however it is asked to:
//
// - The entry runs (through tools/run-ts.js) as the leader of a process group of its own, and everything it starts
//   (the sandbox and its anvil chains, the Kafka JVM, the apps, the receiver) is in that group: one `kill -<group>`
//   reaches all of it, and nothing else (npm, the shell, a test runner stay outside it).
// - Ctrl-C, SIGTERM or SIGHUP to this process, or npm (its parent: the npm script execs this process in its place)
//   going away, are passed on to the entry once, which stops what it started in order. Whatever is still running
//   after STOP_GRACE_MS is killed with the group. A terminal's Ctrl-C reaches this process only: the entry's
//   children get one signal, from the entry, not a second one from the terminal (which made them stop twice and
//   print ERR_SERVER_NOT_RUNNING).
// - This process killed outright (SIGKILL: no handler runs): a watchdog shell, outside the group and holding the
//   read end of a pipe from here, sees the pipe close and stops the group (SIGTERM, then SIGKILL).
// - The entry exiting on its own (a failed start): whatever it left behind is killed with the group.
// npm 10 does not pass a signal sent to its own pid to the script (it exits, leaving the script running): hence the
// parent watch. Plain JavaScript, no build step, so that it adds ~40 ms and no compiler to each start.
const { spawn } = require('node:child_process');
const path = require('node:path');

const STOP_GRACE_MS = Number(process.env['DEV_STOP_GRACE_MS'] ?? 25_000);
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node tools/dev/supervise.js <entry.ts> [args...]\n');
  process.exit(2);
}

const root = path.join(__dirname, '..', '..');
const worker = spawn(
  process.execPath,
  [path.join(root, 'tools', 'run-ts.js'), entry, ...process.argv.slice(3)],
  {
    stdio: 'inherit',
    detached: true, // setsid(): a new session and process group, led by the worker
  },
);
const group = worker.pid;

const killGroup = (signal) => {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false; // nobody left in the group
  }
};

// The watchdog ignores the signals a terminal or npm sends to this process's group: it acts only when the pipe from
// this process closes, which a clean exit avoids by killing it first.
const watchdog = spawn(
  '/bin/sh',
  [
    '-c',
    `trap '' INT TERM HUP; read _; kill -TERM -${group} 2>/dev/null || exit 0; ` +
      `i=0; while kill -0 -${group} 2>/dev/null && [ $i -lt ${Math.ceil(STOP_GRACE_MS / 200)} ]; do sleep 0.2; i=$((i+1)); done; ` +
      `kill -KILL -${group} 2>/dev/null`,
  ],
  { stdio: ['pipe', 'ignore', 'ignore'] },
);
watchdog.on('error', () => undefined);
watchdog.unref();
watchdog.stdin.on('error', () => undefined);
watchdog.stdin.unref?.();

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  try {
    worker.kill(signal);
  } catch {
    // already gone
  }
  setTimeout(() => killGroup('SIGKILL'), STOP_GRACE_MS).unref();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 250).unref();

worker.once('exit', (code, signal) => {
  // Anything the entry left behind (it failed, or did not stop a child) goes with the group.
  killGroup('SIGKILL');
  watchdog.kill('SIGKILL');
  process.exitCode = code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { isAlive as alive, isPortFree as portFree, repoRoot } from '@svc/testing';

/**
 * tools/dev/supervise.js, which `npm start`, `npm run distributed` and `npm run example:partner-backend` exec in
 * npm's place: whichever way it is ended, nothing it started survives and the ports are free. Against a small
 * fixture (a port and a grandchild); npm start itself is tested the same way in start.int.spec.ts, distributed mode
 * in distributed.int.spec.ts.
 */
interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  port: number;
  worker: number;
  grandchild: number;
}

/** `args` after supervise.js; `wrap` runs it under a shell that stays its parent (as npm does). */
async function start(mode: 'stay' | 'leave', wrap: 'direct' | 'shell', detached = false): Promise<Started> {
  const command = `node tools/dev/supervise.js tools/dev/supervise.fixture.ts ${mode}`;
  const child =
    wrap === 'shell'
      ? spawn('/bin/sh', ['-c', `${command}; :`], {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached,
        })
      : spawn(process.execPath, command.split(' ').slice(1), {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached,
        });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 20_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /ready port (\d+) worker (\d+) grandchild (\d+)/.exec(output))) {
    if (Date.now() > deadline) throw new Error(`the fixture did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    output: () => output,
    exited,
    port: Number(match[1]),
    worker: Number(match[2]),
    grandchild: Number(match[3]),
  };
}

async function expectAllGone(s: Started, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while ([s.worker, s.grandchild].some(alive) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  expect({ worker: alive(s.worker), grandchild: alive(s.grandchild) }).toEqual({
    worker: false,
    grandchild: false,
  });
  expect(await portFree(s.port)).toBe(true);
}

const cleanup = (s: Started | undefined) => {
  for (const pid of [s?.worker, s?.grandchild]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
};

// Skipped off Linux: process groups and /bin/sh are what it relies on.
(process.platform === 'linux' ? describe : describe.skip)('tools/dev/supervise.js', () => {
  it('SIGTERM: passed on once to the entry, which stops what it started; exit 0', async () => {
    let s: Started | undefined;
    try {
      s = await start('stay', 'direct');
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      await expectAllGone(s, 5000);
      expect(s.output().match(/got \w+/g)).toEqual(['got SIGTERM']);
    } finally {
      cleanup(s);
    }
  }, 30_000);

  it("Ctrl-C (SIGINT to the terminal's process group): the entry gets one signal, from the supervisor", async () => {
    let s: Started | undefined;
    try {
      s = await start('stay', 'direct', true); // its own group, as a terminal's foreground job
      process.kill(-s.child.pid!, 'SIGINT');
      expect(await s.exited).toBe(0);
      await expectAllGone(s, 5000);
      expect(s.output().match(/got \w+/g)).toEqual(['got SIGINT']);
    } finally {
      cleanup(s);
    }
  }, 30_000);

  it('its parent (npm) killed: it sees the parent go and stops everything', async () => {
    let s: Started | undefined;
    try {
      s = await start('stay', 'shell');
      s.child.kill('SIGKILL'); // the shell standing in for npm
      await expectAllGone(s, 5000);
      expect(s.output()).toContain('got SIGTERM');
    } finally {
      cleanup(s);
    }
  }, 30_000);

  it('killed outright (SIGKILL, no handler runs): its watchdog stops the whole group', async () => {
    let s: Started | undefined;
    try {
      s = await start('stay', 'direct');
      s.child.kill('SIGKILL');
      await expectAllGone(s, 5000);
    } finally {
      cleanup(s);
    }
  }, 30_000);

  it('the entry exits on its own (a failed start): what it left behind is killed, its exit code kept', async () => {
    let s: Started | undefined;
    try {
      s = await start('leave', 'direct');
      expect(await s.exited).toBe(1);
      await expectAllGone(s, 5000);
    } finally {
      cleanup(s);
    }
  }, 30_000);
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/**
 * Ctrl-C in a terminal reaches an app, and the dev environment that started it sends SIGTERM too: each signal used to
 * start a stop of its own, and the second closed what the first had closed (`shutdown failed` with
 * ERR_SERVER_NOT_RUNNING, exit 1, on a clean stop: issue 25 item 7).
 */
describe('stopOnSignals, sent SIGINT then SIGTERM', () => {
  it('stops once: exit 0, no error line', async () => {
    const child = spawn(
      process.execPath,
      ['tools/run-ts.js', 'libs/composition/src/runtime/stop-on-signals.fixture.ts'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      while (!output.includes('ready')) {
        if (child.exitCode !== null) throw new Error(`the fixture exited:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGINT');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).not.toMatch(/"level":50|shutdown failed|ERR_SERVER_NOT_RUNNING/);
      expect(output.match(/shutting down/g)).toEqual(['shutting down']);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});

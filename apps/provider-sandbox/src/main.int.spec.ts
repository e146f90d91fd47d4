import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';

/**
 * A terminal's Ctrl-C reaches `npm run sandbox` and, when npm start runs it, npm start's SIGTERM follows: two
 * signals, one clean stop. Each signal used to start a stop of its own, and the second closed the closed HTTP server:
 * `stop failed: Error [ERR_SERVER_NOT_RUNNING]` and exit 1 on a clean stop (issue 25 item 7).
 */
describe('npm run sandbox, sent SIGINT then SIGTERM', () => {
  it('stops once: exit 0, nothing on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-stop-'));
    const child = spawn(process.execPath, ['tools/run-ts.js', 'apps/provider-sandbox/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_MANIFEST_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 60_000;
      while (!stdout.includes('service environment:')) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`the sandbox did not start:\n${stdout}${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill('SIGINT');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
      expect(stdout.match(/stopping/g)).toEqual(['stopping']);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

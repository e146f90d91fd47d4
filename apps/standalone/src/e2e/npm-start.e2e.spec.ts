import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The newcomer's path, for real: the standalone entry point that `npm start` runs, with the committed
 * development partners, answering a signed ping from the partner CLI (`npm run partner -- ping`).
 */
const root = join(__dirname, '..', '..', '..', '..');
const runTs = join(root, 'tools', 'run-ts.js');

describe('npm start + partner CLI', () => {
  let service: ChildProcess;
  let url: string;
  let dataDir: string;
  let stdout = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'standalone-'));
    service = spawn(process.execPath, [runTs, 'apps/standalone/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${stdout}`)), 30_000);
      service.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] ?? '');
        }
      });
      service.stderr!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      service.on('exit', (code) => reject(new Error(`service exited ${code}:\n${stdout}`)));
    });
  }, 40_000);

  afterAll(() => {
    service?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints where it listens and the configured partners', () => {
    expect(stdout).toContain('demo-partner  auth v2');
    expect(stdout).toContain('npm run partner -- ping');
    expect(stdout).not.toContain('dev-only-secret');
  });

  it('answers a signed ping from the partner CLI', () => {
    const cli = spawnSync(process.execPath, [runTs, 'tools/partner-cli/main.ts', 'ping'], {
      cwd: root,
      env: { ...process.env, SERVICE_URL: url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('"partnerId": "demo-partner"');
    expect(cli.stdout).toContain('"ok": true');
  }, 40_000);

  it('sends the README quote example, validated and routed (501 until quoting lands)', () => {
    const run = () =>
      spawnSync(
        process.execPath,
        [runTs, 'tools/partner-cli/main.ts', 'quote', '--file', 'examples/quote-request.json'],
        {
          cwd: root,
          env: { ...process.env, SERVICE_URL: url },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const cli = run();
    expect(cli.stdout).toContain('not_implemented');
    expect(cli.status).toBe(1);
  }, 40_000);
});

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The newcomer's path, for real: what `npm start` runs (the provider sandbox, then the standalone service wired
 * to it, with the committed development partners), answering a signed ping from the partner CLI.
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
    service = spawn(process.execPath, [runTs, 'tools/dev/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        OPS_PORT: '0', // any free port: tests run side by side
        DATA_DIR: dataDir,
        SANDBOX_PORT: '0',
        SANDBOX_MANIFEST_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${stdout}`)), 30_000);
      service.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /intent service\s+(http:\/\/\S+)[\s\S]*Ctrl-C .* stops everything/.exec(stdout);
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

  it('prints the service and sandbox URLs, the chains and the configured partners', () => {
    expect(stdout).toMatch(/provider sandbox\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/chain 8453\s+base\s+http:\/\/127\.0\.0\.1:\d+/);
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

  it('quotes the README example on the sandbox chains: ready, with a plan', () => {
    const run = () =>
      spawnSync(
        process.execPath,
        [
          runTs,
          'tools/partner-cli/main.ts',
          'quote',
          '--file',
          'examples/quote-request.json',
          '--key',
          `e2e-${Date.now()}`,
        ],
        {
          cwd: root,
          env: { ...process.env, SERVICE_URL: url },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const cli = run();
    expect(cli.stdout).toContain('HTTP 200');
    expect(cli.stdout).toContain('"quoteStatus": "ready"');
    expect(cli.status).toBe(0);
  }, 40_000);
});

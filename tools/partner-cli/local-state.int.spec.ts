import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/**
 * What the documented first-hour commands leave in a clone as local state: each ignored, in the folders
 * docs/contributing.md lists ("Local state"). Anything else, ignored or not, fails this test.
 */
const LOCAL_STATE = [
  'node_modules', // installed (a symlink here)
  '.partner-client/', // the partner CLI's Idempotency-Keys and bodies (README, npm run partner)
  '.partner-backend/', // the example backend's keys and processed webhooks (examples/partner-backend)
  'intent-service-partner-client-0.1.0.tgz', // the SDK tarball npm pack writes (libs/partner-client/README.md)
  'prepared.json', // a saved prepare response (README: prepare <id> > prepared.json)
];

/** A port nothing listens on (bound, then closed): the service is not running, as before npm start. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Issue 25 item 7: a fresh clone followed literally was left with untracked files (`.partner-backend/`, the SDK
 * tarball, `prepared.json`). The commands that write files are run, as documented, in a clone of this commit (with
 * this checkout's .gitignore), against a service that is not running (each writes its state before it sends): the
 * partner CLI's quote, a prepare saved to prepared.json, the example backend's checkout, and npm pack of the SDK.
 * Then `git status --porcelain --ignored` must show nothing untracked, and only the local state listed above.
 */
describe('the documented commands leave nothing untracked in the clone', () => {
  let clone: string;
  let backend: ChildProcess | undefined;

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'local-state-'));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '-q', '--no-checkout', root, clone]);
    execFileSync('git', ['checkout', '-q', head], { cwd: clone });
    copyFileSync(join(root, '.gitignore'), join(clone, '.gitignore')); // the rules as they are now
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'));
  });
  afterAll(() => {
    backend?.kill();
    rmSync(clone, { recursive: true, force: true });
  });

  it('shows only the listed local state', async () => {
    const env = { ...process.env, SERVICE_URL: `http://127.0.0.1:${await closedPort()}` };
    const partner = (args: string[], stdout: 'pipe' | number = 'pipe') =>
      spawnSync(process.execPath, ['tools/bin/intent-partner.js', ...args], {
        cwd: clone,
        env,
        stdio: ['ignore', stdout, 'pipe'],
        timeout: 60_000,
      });

    expect(partner(['quote', '--file', 'examples/quote-request.json']).status).toBe(1); // no service
    expect(existsSync(join(clone, '.partner-client', 'idempotency.json'))).toBe(true);
    const saved = openSync(join(clone, 'prepared.json'), 'w');
    try {
      partner(['prepare', 'is_0123456789abcdef0123456789abcdef'], saved);
    } finally {
      closeSync(saved);
    }

    const port = await closedPort();
    backend = spawn(process.execPath, ['tools/run-ts.js', 'examples/partner-backend/src/main.ts'], {
      cwd: clone,
      env: { ...env, EXAMPLE_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      backend!.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('partner backend on')) resolve();
      });
      backend!.once('exit', (code) => reject(new Error(`the example backend exited with ${code}`)));
    });
    const checkout = await fetch(`http://127.0.0.1:${port}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }),
    });
    await checkout.arrayBuffer();
    backend.kill();
    expect(existsSync(join(clone, '.partner-backend', 'idempotency.json'))).toBe(true);

    const pack = spawnSync('npm', ['pack', './libs/partner-client', '--silent'], {
      cwd: clone,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(pack.stdout.trim()).toBe('intent-service-partner-client-0.1.0.tgz');

    const status = execFileSync('git', ['status', '--porcelain', '--ignored'], {
      cwd: clone,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith(' M .gitignore'));
    expect(status.filter((line) => !line.startsWith('!! '))).toEqual([]);
    expect(status.map((line) => line.slice(3)).sort()).toEqual([...LOCAL_STATE].sort());
  }, 120_000);
});

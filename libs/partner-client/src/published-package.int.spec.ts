import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
// Not @svc/testing's process helpers: libs/testing depends on this library, and a cycle is refused.
const repoRoot = join(__dirname, '..', '..', '..');
const libDir = join(repoRoot, 'libs', 'partner-client');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const partners = JSON.parse(readFileSync(join(repoRoot, 'config', 'partners.dev.json'), 'utf8')) as {
  partners: { partnerId: string; secret: string; authVersion: 1 | 2 }[];
};

/**
 * The SDK as partners get it: built with its own tsconfig (no path aliases, so an import of the service's
 * libraries would not compile), packed with `npm pack`, installed from the tarball into a project outside the
 * monorepo, then used from there (CommonJS, ESM and TypeScript) against the real service booted on loopback.
 */
describe('the published @intent-service/partner-client package', () => {
  let dir: string;
  let consumer: string;
  let tarball: string;
  let serviceUrl: string;
  let service: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-client-pack-'));
    const pkg = join(dir, 'pkg');
    mkdirSync(pkg);
    copyFileSync(join(libDir, 'package.json'), join(pkg, 'package.json'));
    copyFileSync(join(libDir, 'README.md'), join(pkg, 'README.md'));

    service = spawn(process.execPath, [join(repoRoot, 'tools', 'run-ts.js'), 'apps/standalone/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        OPS_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'warn',
        SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
        PARTNERS_FILE: join(repoRoot, 'config', 'partners.dev.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const booted = listeningUrl(service);
    await run(process.execPath, [
      tsc,
      '-p',
      join(libDir, 'tsconfig.build.json'),
      '--outDir',
      join(pkg, 'dist'),
    ]);
    const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: pkg });
    tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);

    consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
      cwd: consumer,
    });
    serviceUrl = await booted;
  }, 60_000);

  afterAll(async () => {
    if (service && service.exitCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('ships the compiled code and declarations only, with no import of the unpublished @svc libraries', () => {
    const installed = join(consumer, 'node_modules', '@intent-service', 'partner-client');
    const files = (sub: string): string[] =>
      readdirSync(join(installed, sub), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(sub, e.name)) : [join(sub, e.name)],
      );
    const shipped = files('.');
    expect(shipped).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']),
    );
    expect(shipped.filter((f) => /\.spec\.|test-helper|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    for (const file of shipped.filter((f) => f.startsWith('dist/')))
      expect(readFileSync(join(installed, file), 'utf8')).not.toMatch(/@svc\//);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest['private']).toBeUndefined();
    expect(manifest['dependencies']).toBeUndefined();
  });

  it.each([
    ['CommonJS (require)', 'ping.cjs', "const sdk = require('@intent-service/partner-client');"],
    ['ESM (import)', 'ping.mjs', "import * as sdk from '@intent-service/partner-client';"],
  ])('%s: a signed v2 and a legacy v1 ping are answered by the real service', async (_label, file, load) => {
    const [v2, v1] = [2, 1].map((v) => partners.partners.find((p) => p.authVersion === v)!);
    writeFileSync(
      join(consumer, file),
      `${load}
const ping = (p) => new sdk.PartnerClient({ baseUrl: process.argv[2], ...p }).ping();
Promise.all([ping(${JSON.stringify(v2)}), ping(${JSON.stringify(v1)})]).then((r) => {
  process.stdout.write(JSON.stringify({ answers: r, exports: Object.keys(sdk).sort() }));
});
`,
    );
    const { stdout } = await run(process.execPath, [file, serviceUrl], { cwd: consumer });
    const out = JSON.parse(stdout) as { answers: { status: number; body: unknown }[]; exports: string[] };
    expect(out.answers).toEqual([
      expect.objectContaining({
        status: 200,
        body: expect.objectContaining({ ok: true, partnerId: v2.partnerId }),
      }),
      expect.objectContaining({
        status: 200,
        body: expect.objectContaining({ ok: true, partnerId: v1.partnerId }),
      }),
    ]);
    expect(out.exports).toEqual(
      expect.arrayContaining(['PartnerClient', 'verifyWebhook', 'createWebhookReceiver', 'signRequestV2']),
    );
  });

  it('type-checks a TypeScript consumer against the shipped declarations, and rejects a wrong use', async () => {
    const good = `import { PartnerClient, verifyWebhook, type AttemptStreamEvent } from '@intent-service/partner-client';
const client = new PartnerClient({ baseUrl: 'http://127.0.0.1:3000', partnerId: 'p', secret: 's', authVersion: 2 });
export async function main(): Promise<number> {
  const answer = await client.quote({ walletAddress: '0x' }, { operationId: 'op-1' });
  const events: AttemptStreamEvent[] = [];
  for await (const e of client.followAttemptEvents('att_1', { lastEventId: 'evt_1' })) events.push(e);
  const v = verifyWebhook('{}', {}, { partnerId: 'p', secret: 's', nowMs: Date.now() });
  return answer.status + events.length + (v.ok ? 1 : 0);
}
`;
    writeFileSync(join(consumer, 'good.ts'), good);
    writeFileSync(join(consumer, 'bad.ts'), good.replace('authVersion: 2', 'authVersion: 3'));
    // One compiler run for both files: only bad.ts may fail (skipLibCheck: @types/node is not ours to check).
    const checked = await run(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        join(repoRoot, 'node_modules', '@types'),
        'good.ts',
        'bad.ts',
      ],
      { cwd: consumer },
    ).then(
      () => 'compiled',
      (error: { stdout: string }) => error.stdout,
    );
    const errors = checked.split('\n').filter((line) => /error TS/.test(line));
    expect(errors).toEqual([expect.stringMatching(/^bad\.ts\(2,\d+\): error TS2322/)]);
  }, 40_000);
});

/** The URL the service prints once it listens; rejects with its output if it exits or takes over 30 s. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}):\n${output}`));
    });
  });
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPackage } from '../scripts/build-package';

const run = promisify(execFile);
// Not @svc/testing's process helpers: libs/testing depends on this library, and a cycle is refused.
const repoRoot = join(__dirname, '..', '..', '..');
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
    // The package's own build (npm run partner-client:build): dist/cjs, dist/esm, package.json, README, CHANGELOG.
    buildPackage(pkg);
    const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: pkg });
    tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);

    consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
      cwd: consumer,
    });
    serviceUrl = await booted;
  }, 180_000);

  afterAll(async () => {
    if (service && service.exitCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** viem, an optional peer dependency, linked into the consumer (the tests before this run without it). */
  function linkViem(): void {
    const target = join(consumer, 'node_modules', 'viem');
    if (!existsSync(target)) symlinkSync(join(repoRoot, 'node_modules', 'viem'), target, 'dir');
  }

  it('ships the compiled code and declarations only, with no import of the unpublished @svc libraries', () => {
    const installed = join(consumer, 'node_modules', '@intent-service', 'partner-client');
    const files = (sub: string): string[] =>
      readdirSync(join(installed, sub), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(sub, e.name)) : [join(sub, e.name)],
      );
    const shipped = files('.');
    expect(shipped).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/viem/index.js',
        'dist/cjs/viem/index.d.ts',
        'dist/esm/index.js',
        'dist/esm/viem.js',
        'dist/esm/package.json',
      ]),
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
    expect(manifest['peerDependenciesMeta']).toEqual({ viem: { optional: true } });
    expect(manifest['engines']).toEqual({ node: '>=20' });
    expect(manifest['sideEffects']).toBe(false);
    expect(JSON.parse(readFileSync(join(installed, 'dist', 'esm', 'package.json'), 'utf8'))).toEqual({
      type: 'module',
    });
    // The main entry never loads viem: nothing under dist/cjs outside viem/ requires it.
    const viemUsers = shipped.filter(
      (f) => f.endsWith('.js') && /require\("viem/.test(readFileSync(join(installed, f), 'utf8')),
    );
    expect(viemUsers).toEqual(['dist/cjs/viem/execute-prepared.js']);
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
    // Without viem installed: the main entry does not need it.
    expect(existsSync(join(consumer, 'node_modules', 'viem'))).toBe(false);
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
      expect.arrayContaining([
        'PartnerClient',
        'IntentClient',
        'IntentApiError',
        'constructEvent',
        'verifyWebhook',
        'createWebhookReceiver',
        'signRequestV2',
      ]),
    );
  });

  it('the typed client throws the same IntentApiError class to require() and import() users', async () => {
    writeFileSync(
      join(consumer, 'typed.mjs'),
      `import { createRequire } from 'node:module';
import * as esm from '@intent-service/partner-client';
const cjs = createRequire(import.meta.url)('@intent-service/partner-client');
const p = ${JSON.stringify(partners.partners.find((x) => x.authVersion === 2))};
const ping = await new esm.IntentClient({ baseUrl: process.argv[2], ...p }).ping();
const error = await new cjs.IntentClient({ baseUrl: process.argv[2], ...p, secret: 'wrong' }).ping().catch((e) => e);
process.stdout.write(JSON.stringify({
  ping,
  sameClass: esm.IntentApiError === cjs.IntentApiError,
  esmInstance: error instanceof esm.AuthenticationError,
  code: error.code,
  sameNames: JSON.stringify(Object.keys(esm).sort()) === JSON.stringify(Object.keys(cjs).filter((k) => k !== '__esModule').sort()),
}));
`,
    );
    const { stdout } = await run(process.execPath, ['typed.mjs', serviceUrl], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({
      ping: expect.objectContaining({ ok: true }),
      sameClass: true,
      esmInstance: true,
      code: 'external_auth_signature_invalid',
      sameNames: true,
    });
  });

  it('./viem: require() and import() load executePrepared once viem is installed', async () => {
    linkViem();
    writeFileSync(
      join(consumer, 'viem-entry.mjs'),
      `import { createRequire } from 'node:module';
import * as esm from '@intent-service/partner-client/viem';
const cjs = createRequire(import.meta.url)('@intent-service/partner-client/viem');
process.stdout.write(JSON.stringify({ esm: Object.keys(esm).sort(), same: esm.executePrepared === cjs.executePrepared }));
`,
    );
    const { stdout } = await run(process.execPath, ['viem-entry.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({
      esm: ['ChainActionRevertedError', 'atomicIn', 'executePrepared', 'supportsAtomicBatch'],
      same: true,
    });
  });

  it('type-checks a TypeScript consumer against the shipped declarations, and rejects a wrong use', async () => {
    linkViem();
    const good = `import { PartnerClient, verifyWebhook, type AttemptStreamEvent } from '@intent-service/partner-client';
import { IntentClient, isIntentApiError, type QuoteRequest } from '@intent-service/partner-client';
import { executePrepared } from '@intent-service/partner-client/viem';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
const client = new PartnerClient({ baseUrl: 'http://127.0.0.1:3000', partnerId: 'p', secret: 's', authVersion: 2 });
const typed = new IntentClient(client);
export async function typedFlow(body: QuoteRequest): Promise<string> {
  try {
    const quote = await typed.quote(body);
    const prepared = await typed.prepare(quote.intentSessionId);
    const account = privateKeyToAccount('0x${'11'.repeat(32)}');
    const wallet = createWalletClient({ account, transport: http('http://127.0.0.1:8545') });
    const done = await executePrepared(wallet, prepared, { client: typed });
    return done.attempt?.status ?? 'not reported';
  } catch (e) {
    if (isIntentApiError(e, 'quote_changed')) return e.code;
    throw e;
  }
}
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
        // Plain `file(line,col): error TSnnnn` lines, whatever the terminal (CI sets FORCE_COLOR, which makes tsc pretty).
        '--pretty',
        'false',
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
    expect(errors).toEqual([expect.stringMatching(/^bad\.ts\(6,\d+\): error TS2322/)]);
  }, 40_000);
});

/**
 * The URL the service prints once it listens; rejects with its output if it exits or takes over 120 s. The clock
 * runs while beforeAll's synchronous package build blocks the event loop, and on a busy machine that build alone
 * took over 30 s: the timer then fired before the service's output (already there) was read.
 */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 120_000);
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

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from '@svc/testing';
import { appNames, buildApps, type BuildResult, SHIPPED_APPS, undeclaredPackages } from './build-apps';

/**
 * `npm run build`'s compiler on this repository's real sources, into a temp dir: what it writes, and the checks
 * `npm run build` makes with it. That the output runs is prod-install.int.spec.ts's part.
 */
describe('buildApps', () => {
  let dir: string;
  let all: BuildResult;
  let shipped: BuildResult;
  const files = (root: string): string[] =>
    readdirSync(root, { recursive: true, encoding: 'utf8' }).map((f) => relative(root, join(root, f)));
  const dependencies = (
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'build-apps-'));
    all = await buildApps({ root: repoRoot, outDir: join(dir, 'all') });
    shipped = await buildApps({ root: repoRoot, outDir: join(dir, 'shipped'), apps: SHIPPED_APPS });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each app to apps/<app>/src/main.js, with a source map beside every file', () => {
    expect(all.apps.map((a) => a.app)).toEqual(appNames(repoRoot));
    for (const app of all.apps) expect(existsSync(join(dir, 'all', app.entry))).toBe(true);
    const js = files(join(dir, 'all')).filter((f) => f.endsWith('.js'));
    expect(js.length).toBe(all.files);
    expect(js.filter((f) => !existsSync(join(dir, 'all', `${f}.map`)))).toEqual([]);
  });

  it('rewrites @svc/* to relative requires and keeps the decorator metadata Nest injects by', () => {
    const out = files(join(dir, 'shipped')).filter((f) => f.endsWith('.js'));
    const code = out.map((f) => readFileSync(join(dir, 'shipped', f), 'utf8'));
    expect(code.filter((c) => /require\("@svc\//.test(c))).toEqual([]);
    const handler = readFileSync(
      join(dir, 'shipped', 'libs/execution/src/prepare-attempt/prepare-attempt.handler.js'),
      'utf8',
    );
    expect(handler).toMatch(/_ts_metadata\("design:paramtypes"/);
  });

  it('compiles only what the apps require: no spec, and for the shipped apps no test kit', () => {
    expect(files(join(dir, 'all')).filter((f) => /\.spec\.js$/.test(f))).toEqual([]);
    expect(existsSync(join(dir, 'all', 'libs', 'testing'))).toBe(true); // the provider sandbox imports it
    expect(existsSync(join(dir, 'shipped', 'libs', 'testing'))).toBe(false);
    expect(existsSync(join(dir, 'shipped', 'apps', 'provider-sandbox'))).toBe(false);
  });

  it('finds the packages each app requires: the shipped ones only production dependencies', () => {
    expect(undeclaredPackages(shipped, dependencies)).toEqual([]);
    const sandbox = all.apps.find((a) => a.app === 'provider-sandbox');
    expect(sandbox?.packages).toContain('testcontainers'); // a devDependency, seen in its requires
    const standalone = all.apps.find((a) => a.app === 'standalone');
    expect(standalone?.packages).toEqual(expect.arrayContaining(['@nestjs/core', 'better-sqlite3', 'viem']));
    // A shipped app requiring a dev package is reported, with the package named.
    const withDevPackage = {
      ...shipped,
      apps: shipped.apps.map((a) =>
        a.app === 'gateway' ? { ...a, packages: [...a.packages, 'testcontainers'] } : a,
      ),
    };
    expect(undeclaredPackages(withDevPackage, dependencies)).toEqual([
      { app: 'gateway', missing: ['testcontainers'] },
    ]);
  });
});

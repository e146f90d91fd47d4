import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildApps, SHIPPED_APPS, undeclaredPackages } from './build-apps';

/**
 * `npm run build` (first half; the partner SDK follows): every app to dist/apps/<app>/src/main.js. Fails when a
 * shipped app requires a package that is not a production dependency: the image installs those alone.
 * `--shipped`: only the apps the runtime image runs (SHIPPED_APPS: not the provider sandbox, so none of the test
 * kit it imports); BUILD_OUT_DIR: another output folder than dist (relative to the repository root).
 */
async function main(): Promise<void> {
  const root = join(__dirname, '..', '..');
  const result = await buildApps({
    root,
    outDir: process.env['BUILD_OUT_DIR'] ?? 'dist',
    ...(process.argv.includes('--shipped') ? { apps: SHIPPED_APPS } : {}),
  });
  const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const problems = undeclaredPackages(result, dependencies).map(
    (a) => `${a.app} requires ${a.missing.join(', ')}: not in dependencies`,
  );
  process.stdout.write(
    `build: ${result.apps.length} apps, ${result.files} files compiled in ${result.ms} ms to ${result.outDir}\n` +
      result.apps.map((a) => `  node ${join(relative(root, result.outDir), a.entry)}\n`).join(''),
  );
  if (problems.length > 0) {
    process.stderr.write(`build: ${problems.join('; ')}\n`);
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`build: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});

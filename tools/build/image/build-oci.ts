import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareProdApp } from '../prod-app';
import { buildOciImage } from './build-oci-image';

const repoRoot = resolve(__dirname, '..', '..', '..');

/**
 * `npm run image:oci -- [--app gateway] [--out dist/oci/<app>] [--app-dir <folder>] [--entry <path in /app>]`:
 * docker/Dockerfile's runtime image as an OCI image layout, built without a container engine (docker/README.md,
 * "Built and run here without Docker"). Without --app-dir the app is built alone and given the production install
 * (tools/build/prod-app.ts); with it, that folder (dist/, node_modules/, package.json) becomes /app as it is.
 * Prints each layer's size and the manifest digest.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      app: { type: 'string', default: 'gateway' },
      'app-dir': { type: 'string' },
      out: { type: 'string' },
      entry: { type: 'string' },
    },
  });
  const app = values.app;
  const startedAt = Date.now();
  const prepared = values['app-dir'] ? undefined : mkdtempSync(join(tmpdir(), 'oci-app-'));
  try {
    let appDir = values['app-dir'] ?? '';
    if (prepared) {
      const built = await prepareProdApp({ root: repoRoot, dir: prepared, apps: [app] });
      appDir = built.dir;
      const install =
        built.install.installMs === null ? 'cached' : `installed in ${built.install.installMs} ms`;
      process.stdout.write(`${app}: built to dist, production node_modules ${install}\n`);
    }
    const image = await buildOciImage({
      app,
      appDir,
      out: resolve(values.out ?? join(repoRoot, 'dist', 'oci', app)),
      entry: values.entry,
    });
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    for (const l of image.layers) {
      process.stdout.write(
        `layer ${l.name}: ${mb(l.size)} gzip'd, ${mb(l.tarSize)} unpacked (${l.digest})\n`,
      );
    }
    process.stdout.write(
      `${image.dir}: ${image.config.config.Labels['org.opencontainers.image.title']}, manifest ` +
        `${image.manifest.digest}, ${mb(image.imageSize)}, in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
  } finally {
    if (prepared) rmSync(prepared, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`image:oci: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});

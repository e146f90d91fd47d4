import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DebianPackage, unpackDebianPackages } from './debian-packages';

/** The unprivileged user the image runs as, as in the node image the Dockerfile starts from. */
export const APP_UID = 1000;

/** Paths of the base layer that belong to the `node` user (uid/gid 1000); everything else is root's. */
export const NODE_OWNED_PATHS = ['data', 'home/node'] as const;

/**
 * The base layer's files in `root`: the Debian packages' files, then what an image needs and no package gives
 * (/etc/passwd and /etc/group with root and `node`, /tmp, /data, node's home, the CA bundle, UTC as local time).
 */
export function stageBaseRoot(packages: readonly DebianPackage[], root: string): void {
  unpackDebianPackages(packages, root);
  mkdirSync(join(root, 'etc/ssl/certs'), { recursive: true });
  writeFileSync(
    join(root, 'etc/passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\nnode:x:${APP_UID}:${APP_UID}::/home/node:/usr/sbin/nologin\n`,
  );
  writeFileSync(join(root, 'etc/group'), `root:x:0:\nnode:x:${APP_UID}:\n`);
  writeFileSync(join(root, 'etc/ssl/certs/ca-certificates.crt'), caBundle(root));
  symlinkSync('/usr/share/zoneinfo/Etc/UTC', join(root, 'etc/localtime'));
  writeFileSync(join(root, 'etc/timezone'), 'Etc/UTC\n');
  for (const dir of ['tmp', 'data', 'home/node', 'proc', 'dev', 'sys']) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  chmodSync(join(root, 'tmp'), 0o1777);
  for (const dir of ['data', 'home', 'home/node']) chmodSync(join(root, dir), 0o755);
}

/** update-ca-certificates' bundle: every certificate ca-certificates ships (all are enabled by default), sorted. */
function caBundle(root: string): string {
  const dir = join(root, 'usr/share/ca-certificates/mozilla');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.crt'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8').trimEnd() + '\n')
    .join('');
}

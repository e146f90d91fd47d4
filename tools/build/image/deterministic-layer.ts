import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';

export interface LayerBlob {
  /** sha256 of the gzip'd tar: the blob's name and the manifest's digest. */
  digest: string;
  /** Bytes of the gzip'd tar. */
  size: number;
  /** sha256 of the uncompressed tar: the config's rootfs.diff_ids entry. */
  diffId: string;
  /** Bytes of the uncompressed tar. */
  tarSize: number;
}

/** Paths (relative to the staged root) archived with another owner or mode than root's. */
export interface OwnedPaths {
  paths: readonly string[];
  uid: number;
  gid: number;
}

const run = promisify(execFile);

// GNU tar: names sorted, every mtime the same, numeric owners, POSIX format without atime/ctime, so the same files
// give the same bytes on any machine, whoever owns them there.
const DETERMINISTIC = [
  '--sort=name',
  '--mtime=@0',
  '--numeric-owner',
  '--format=posix',
  '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
];

/**
 * Archives the folder `root` as one layer into `blobsDir` (blobs/sha256/<digest>): every file owned by root (0:0),
 * group and others never writable (`/tmp` keeps its sticky 1777), except `owned`, archived last as their own owner.
 */
export async function writeLayer(
  root: string,
  blobsDir: string,
  owned: readonly OwnedPaths[] = [],
): Promise<LayerBlob> {
  const tarFile = join(blobsDir, `.layer-${basename(root)}-${process.pid}.tar`);
  const ownedPaths = owned.flatMap((o) => o.paths).filter((p) => existsSync(join(root, p)));
  // /tmp and the parents of owned paths (home for home/node): root's, with the modes staged, without their content.
  const rootDirs = [...new Set(['tmp', ...ownedPaths.flatMap(parentsOf)])]
    .filter((p) => existsSync(join(root, p)))
    .sort();
  const skip = new Set([...rootDirs, ...ownedPaths].map((p) => p.split('/')[0]));
  const top = readdirSync(root)
    .filter((f) => !skip.has(f))
    .sort();
  // Asynchronous, as the gzip is (zlib on libuv's threads): the layers of an image are written side by side.
  const tar = (args: string[]) => run('tar', ['-C', root, ...DETERMINISTIC, ...args]);
  await tar(['--owner=0', '--group=0', '--mode=a+rX,go-w', '-cf', tarFile, ...top]);
  if (rootDirs.length) await tar(['--owner=0', '--group=0', '--no-recursion', '-rf', tarFile, ...rootDirs]);
  for (const o of owned) {
    const present = o.paths.filter((p) => existsSync(join(root, p)));
    if (present.length)
      await tar([`--owner=${o.uid}`, `--group=${o.gid}`, '--mode=go-w', '-rf', tarFile, ...present]);
  }
  try {
    return await gzipToBlob(tarFile, blobsDir);
  } finally {
    rmSync(tarFile, { force: true });
  }
}

/** `home/node` → [`home`]; `data` → []. */
function parentsOf(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** gzip (level 6, no name, no time: the same bytes each time) hashing the tar and the gzip in the same pass. */
async function gzipToBlob(tarFile: string, blobsDir: string): Promise<LayerBlob> {
  const tarHash = createHash('sha256');
  const gzHash = createHash('sha256');
  let tarSize = 0;
  let size = 0;
  const gzFile = `${tarFile}.gz`;
  await pipeline(
    createReadStream(tarFile),
    tap((chunk) => {
      tarHash.update(chunk);
      tarSize += chunk.length;
    }),
    createGzip({ level: 6 }),
    tap((chunk) => {
      gzHash.update(chunk);
      size += chunk.length;
    }),
    createWriteStream(gzFile),
  );
  const hex = gzHash.digest('hex');
  renameSync(gzFile, join(blobsDir, hex));
  return { digest: `sha256:${hex}`, size, diffId: `sha256:${tarHash.digest('hex')}`, tarSize };
}

function tap(onChunk: (chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onChunk(chunk);
      done(null, chunk);
    },
  });
}

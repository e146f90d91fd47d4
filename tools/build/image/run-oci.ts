import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ImageConfig, type VerifiedImage } from './oci-layout';

/**
 * How this machine can run an unpacked image: as root, in new mount and pid namespaces with the image's user set
 * by `unshare --setuid/--setgid` (as a runtime does); not root, in a user namespace where this user is the image's
 * user; or not at all, with the reason.
 */
export type Isolation = { kind: 'root' } | { kind: 'user-namespace' } | { kind: 'none'; reason: string };

export function probeIsolation(): Isolation {
  if (spawnSync('unshare', ['--version']).status !== 0)
    return { kind: 'none', reason: 'no unshare (util-linux)' };
  if (process.getuid?.() === 0) return { kind: 'root' };
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--mount', '--pid', '--fork', 'true']);
  if (probe.status === 0) return { kind: 'user-namespace' };
  return { kind: 'none', reason: `not root, and no user namespaces: ${probe.stderr.toString().trim()}` };
}

/** Extracts the layers in order into `rootfs`, then adds what a runtime provides: /etc/hosts, /etc/resolv.conf. */
export function unpackImage(image: VerifiedImage, rootfs: string): void {
  // The builder writes no whiteouts (.wh.*): each layer only adds files, so extracting in order is the whole job.
  for (const layer of image.layers)
    execFileSync('tar', ['-xzpf', layer.file, '--numeric-owner', '-C', rootfs]);
  writeFileSync(
    join(rootfs, 'etc/hosts'),
    '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n',
  );
  if (existsSync('/etc/resolv.conf')) copyFileSync('/etc/resolv.conf', join(rootfs, 'etc/resolv.conf'));
}

export interface RunOptions {
  isolation: Exclude<Isolation, { kind: 'none' }>;
  /** Added to the image's Env, replacing a variable of the same name. */
  env?: Record<string, string>;
  /** Host files bound read-only into the container (a ConfigMap or compose volume), host path → container path. */
  mounts?: Record<string, string>;
  /** After the entry point, as `docker run <image> <args>` passes them. */
  args?: readonly string[];
}

// In the new mount and pid namespaces: /proc of the new pid namespace, the device nodes a process expects, the
// mounts; then chroot, chdir and drop to the image's user, and exec the entry point (it is PID 1).
const LAUNCH = [
  'set -e',
  'mode=$1 r=$2 wd=$3 uid=$4 gid=$5 mounts=$6; shift 6',
  'mount -t proc proc "$r/proc"',
  'for d in null zero full random urandom; do : > "$r/dev/$d"; mount --bind "/dev/$d" "$r/dev/$d"; done',
  'printf %s "$mounts" | while IFS=\'|\' read -r src dst; do',
  '  [ -n "$src" ] || continue; mkdir -p "$(dirname "$r$dst")"; : > "$r$dst"',
  '  mount --bind "$src" "$r$dst"; mount -o remount,bind,ro "$r$dst"',
  'done',
  'unset PWD OLDPWD',
  'if [ "$mode" = root ]; then exec unshare --root="$r" --wd="$wd" --setgid "$gid" --setuid "$uid" -- "$@"; fi',
  // Not root: this user is root of the outer user namespace (mount needs that); a nested one maps it to the image's.
  'exec unshare --user --map-user="$uid" --map-group="$gid" --root="$r" --wd="$wd" -- "$@"',
].join('\n');

/**
 * Starts the image's entry point in `rootfs` with its config's user, Env and WorkingDir, on the host's network
 * (loopback included), as `docker run --network host` would. Stop it with `stopContainer`.
 */
export function runContainer(rootfs: string, config: ImageConfig, options: RunOptions): ChildProcess {
  const { User, Env, WorkingDir, Entrypoint, Cmd } = config.config;
  const [uid, gid] = User.split(':');
  const env = Object.fromEntries(Env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  Object.assign(env, options.env);
  const mounts = Object.entries(options.mounts ?? {})
    .map(([src, dst]) => `${src}|${dst}\n`)
    .join('');
  const nsArgs = options.isolation.kind === 'root' ? [] : ['--user', '--map-root-user'];
  const command = [...Entrypoint, ...(options.args ?? Cmd ?? [])];
  return spawn(
    'unshare',
    [
      ...nsArgs,
      '--mount',
      '--pid',
      '--fork',
      '--',
      'sh',
      '-c',
      LAUNCH,
      'oci-run',
      options.isolation.kind,
      rootfs,
      WorkingDir,
      uid,
      gid ?? uid,
      mounts,
      ...command,
    ],
    // The host's unshare and sh need a PATH; the image's PATH serves both.
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * SIGTERM to the entry point (PID 1 of the container's pid namespace, so everything in it ends with it), SIGKILL
 * after `graceMs`; resolves with the exit code unshare reports for it. `unshare --fork` itself ignores SIGTERM, and
 * its --kill-child would not survive the change of user, so the signal goes to the process it forked.
 */
export async function stopContainer(child: ChildProcess, graceMs = 15_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const entry = containerPid(child);
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (entry) process.kill(entry, sig);
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** The host pid of the container's PID 1: the one child of `unshare --fork`. */
export function containerPid(child: ChildProcess): number | undefined {
  try {
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
    return children ? Number(children.split(' ')[0]) : undefined;
  } catch {
    return undefined;
  }
}

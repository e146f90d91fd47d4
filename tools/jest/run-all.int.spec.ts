import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

// The module `npm test` runs (plain JavaScript, loaded by node without a build step).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runAll } = require('./run-all') as {
  runAll(options: {
    cwd: string;
    serial: string[];
    jestArgs: string[];
    out: Writable;
    err: Writable;
  }): Promise<number>;
};

/** A workspace of plain JavaScript suites with its own jest config and this repository's summary reporter. */
function workspace(suites: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-all-'));
  writeFileSync(
    join(dir, 'jest.config.js'),
    `module.exports = { rootDir: __dirname, testMatch: ['**/*.test.js'], transform: {}, testEnvironment: 'node',
      reporters: ['default', ${JSON.stringify(join(__dirname, 'summary-reporter.js'))}] };\n`,
  );
  for (const [name, body] of Object.entries(suites)) writeFileSync(join(dir, name), body);
  return dir;
}

const passing = (n: number) =>
  Array.from({ length: n }, (_, i) => `test('passes ${i}', () => expect(1).toBe(1));\n`).join('');
/** Fails the first time it runs (leaving a marker), passes after: a suite disturbed once. */
const failsOnce = `const fs = require('node:fs');
const marker = require('node:path').join(__dirname, 'ran-once');
test('passes', () => expect(1).toBe(1));
test('fails the first time', () => {
  const first = !fs.existsSync(marker);
  fs.writeFileSync(marker, '');
  expect(first).toBe(false);
});
`;
const alwaysFails = `test('always fails', () => expect('broken').toBe('fixed'));\n`;

async function runIn(dir: string): Promise<{ code: number; output: string }> {
  let output = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const code = await runAll({
    cwd: dir,
    serial: ['serial\\.test\\.js$'],
    jestArgs: ['--config', join(dir, 'jest.config.js')],
    out,
    // The suites' own progress (jest writes it to stderr), kept out of this suite's output.
    err: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
  return { code, output };
}

describe('npm test (tools/jest/run-all.js)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('runs a suite that failed beside another once more alone, counts it by that run, and names it', async () => {
    const dir = workspace({
      'a.test.js': passing(3),
      'flaky.test.js': failsOnce,
      'serial.test.js': passing(2),
    });
    dirs.push(dir);
    const { code, output } = await runIn(dir);
    expect(existsSync(join(dir, 'ran-once'))).toBe(true);
    expect(output).toContain('1 suite(s) failed while two ran at once');
    expect(output).toMatch(
      /npm test: flaky\.test\.js failed beside another suite \(.*fails the first time\) and passed alone/,
    );
    expect(output.trim().split('\n').at(-1)).toBe('tests: 7 passed, 0 failed, 0 skipped');
    expect(code).toBe(0);
  }, 60_000);

  it('fails when a suite fails alone too, and does not re-run a breakage of more than three suites', async () => {
    const dir = workspace({
      'a.test.js': passing(1),
      'broken.test.js': alwaysFails,
      'serial.test.js': passing(1),
    });
    dirs.push(dir);
    const once = await runIn(dir);
    expect(once.output).toMatch(
      /broken\.test\.js failed beside another suite \(.*always fails\) and failed again alone/,
    );
    expect(once.output.trim().split('\n').at(-1)).toBe('tests: 2 passed, 1 failed, 0 skipped');
    expect(once.code).toBe(1);

    const many = workspace({
      ...Object.fromEntries(['b1', 'b2', 'b3', 'b4'].map((name) => [`${name}.test.js`, alwaysFails])),
      'serial.test.js': passing(1),
    });
    dirs.push(many);
    const broken = await runIn(many);
    expect(broken.output).not.toContain('runs once more');
    expect(broken.output.trim().split('\n').at(-1)).toBe('tests: 1 passed, 4 failed, 0 skipped');
    expect(broken.code).toBe(1);
  }, 90_000);
});

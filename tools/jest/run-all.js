// The two phases of `npm test` (tools/jest/test.js): all suites but the serial ones two at a time, then the serial
// ones alone, one after another. A suite that failed in the first phase, when at most MAX_RERUNS did, runs once more
// alone at the end (docs/contributing.md "Tests"): it counts as passed only if it passes alone, and the summary names
// it with its first failure, so a suite that fails only beside another is reported, not hidden. Ends with one
// combined "tests: N passed, N failed, N skipped" line (the line tools/jest/summary-reporter.js prints per run).
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const jestBin = require.resolve('jest/bin/jest');
/** More failed suites than this in the first phase is a breakage, not a suite disturbed by its neighbour. */
const MAX_RERUNS = 3;

function run(cwd, args, out = process.stdout, err = process.stderr) {
  return new Promise((resolve) => {
    let tail = '';
    // jest's progress goes to stderr: inherited (a terminal keeps its colours) unless the caller collects it.
    const inherit = err === process.stderr;
    const child = spawn(process.execPath, [jestBin, ...args], {
      cwd,
      stdio: ['inherit', 'pipe', inherit ? 'inherit' : 'pipe'],
    });
    if (!inherit) child.stderr.on('data', (chunk) => err.write(chunk));
    child.stdout.on('data', (chunk) => {
      out.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    child.on('close', (code, signal) => {
      const counts = /tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(tail);
      resolve({ code: code ?? (signal ? 1 : 0), counts: counts ? counts.slice(1).map(Number) : null });
    });
  });
}

/** The suites of a `--json` report that failed, with their counts and first failure message. */
function failedSuites(cwd, reportPath) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch {
    return null;
  }
  return report.testResults
    .filter((suite) => suite.status === 'failed')
    .map((suite) => ({
      path: path.relative(cwd, suite.name),
      counts: suite.assertionResults.reduce(
        (sum, test) => {
          sum[test.status === 'passed' ? 0 : test.status === 'failed' ? 1 : 2]++;
          return sum;
        },
        [0, 0, 0],
      ),
      // A suite that failed to run at all has no test results, only its message.
      message: (
        suite.assertionResults.find((test) => test.status === 'failed')?.fullName ??
        suite.message ??
        ''
      )
        .split('\n')[0]
        .slice(0, 300),
    }));
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Both phases and the re-runs; `jestArgs` go before each run's own (a `--config`, in this module's test). Resolves with
 * the exit code.
 */
async function runAll({ cwd, serial, jestArgs = [], out = process.stdout, err = process.stderr }) {
  const started = Date.now();
  const reports = mkdtempSync(path.join(tmpdir(), 'npm-test-'));
  const parallelReport = path.join(reports, 'parallel.json');
  const parallel = await run(
    cwd,
    [
      ...jestArgs,
      '--maxWorkers=2',
      '--json',
      `--outputFile=${parallelReport}`,
      '--testPathIgnorePatterns',
      '/node_modules/',
      ...serial,
    ],
    out,
    err,
  );
  const alone = await run(cwd, [...jestArgs, '--runInBand', '--testPathPatterns', ...serial], out, err);
  const sum = [0, 1, 2].map((i) => (parallel.counts?.[i] ?? 0) + (alone.counts?.[i] ?? 0));
  let parallelFailed = parallel.code !== 0 || parallel.counts === null;
  const reruns = [];
  const failed = parallel.code !== 0 && parallel.counts !== null ? failedSuites(cwd, parallelReport) : null;
  if (failed !== null && failed.length > 0 && failed.length <= MAX_RERUNS) {
    out.write(
      `\nnpm test: ${failed.length} suite(s) failed while two ran at once; each runs once more, alone:\n` +
        failed.map((suite) => `  ${suite.path}: ${suite.message}\n`).join(''),
    );
    let allPassed = true;
    for (const suite of failed) {
      const again = await run(
        cwd,
        [...jestArgs, '--runInBand', '--testPathPatterns', `${escape(suite.path)}$`],
        out,
        err,
      );
      const passed = again.code === 0 && again.counts !== null;
      allPassed &&= passed;
      reruns.push({ ...suite, passed });
      // The suite's first counts give way to its counts alone.
      for (const i of [0, 1, 2]) sum[i] += (again.counts?.[i] ?? 0) - suite.counts[i];
    }
    parallelFailed = !allPassed;
  }
  rmSync(reports, { recursive: true, force: true });
  const seconds = Math.round((Date.now() - started) / 1000);
  out.write(
    `\nnpm test: two at a time, then ${serial.length} serial suites alone; ${seconds} s in all\n` +
      reruns
        .map(
          (suite) =>
            `npm test: ${suite.path} failed beside another suite (${suite.message}) and ` +
            `${suite.passed ? 'passed' : 'failed again'} alone\n`,
        )
        .join('') +
      `tests: ${sum[0]} passed, ${sum[1]} failed, ${sum[2]} skipped\n`,
  );
  return parallelFailed || alone.code !== 0 || alone.counts === null ? 1 : 0;
}

module.exports = { runAll, run, MAX_RERUNS };

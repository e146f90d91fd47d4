import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './bench-options';
import { runBench } from './run-bench';

/**
 * CI's smoke of `npm run bench`: the same entry at the `--smoke` sizes. It checks that every scenario ran and produced
 * its figures, never how fast they are: a benchmark is not a timed test, and this machine is shared.
 */
describe('npm run bench -- --smoke', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every scenario and writes a table with every figure', async () => {
    const out = join(dir, 'bench.md');
    const { figures, markdown } = await runBench(benchOptions(['--smoke', '--out', out]));

    const names = figures.map((f) => `${f.scenario} | ${f.name}`);
    for (const expected of [
      /^1\. signed ping \| requests\/s$/,
      /^1\. signed ping \| p99 latency$/,
      /^1\. signed status read \| requests\/s$/,
      /^2\. status read, 100 attempts \| p50 latency$/,
      /^3\. quote, 1 source × 3 providers \| p95 over the floor \(1 × 200 ms\)$/,
      /^3\. quote, mayan hanging \| answer time/,
      /^4\. webhooks, fast receiver \| append → verified at the receiver, p95$/,
      /^4\. webhooks, fast receiver \| deliveries\/s$/,
      /^4\. webhooks, another partner black-holed \| measured partner's p95$/,
      /^5\. memory and boot \| boot of `npm run service`/,
      /^5\. memory and boot \| service RSS after the signed ping load$/,
      /^5\. memory and boot \| service RSS after quotes of 1 source$/,
    ]) {
      expect(names).toContainEqual(expect.stringMatching(expected));
    }
    for (const figure of figures) {
      expect(figure.samples).toHaveLength(1);
      // Memory is read from /proc (Linux); every other figure is a measurement (∞ where a webhook never came).
      if (figure.unit !== 'MB') expect(figure.samples.some(Number.isNaN)).toBe(false);
    }
    expect(readFileSync(out, 'utf8')).toBe(markdown);
    expect(markdown.split('\n').filter((line) => line.startsWith('| '))).toHaveLength(figures.length + 2);
  }, 150_000);
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeKafkaBroker } from '@svc/testing';
import { benchOptions, SCENARIOS } from './bench-options';
import { childPids } from './process-cpu';
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
    // Every scenario but the distributed one, which needs a Kafka broker: the test below.
    const only = SCENARIOS.filter((s) => s !== 'distributed').join(',');
    const { figures, markdown } = await runBench(benchOptions(['--smoke', '--only', only, '--out', out]));

    const names = figures.map((f) => `${f.scenario} | ${f.name}`);
    for (const expected of [
      /^1\. signed ping \| requests\/s$/,
      /^1\. signed ping \| p99 latency$/,
      /^1\. signed status read \| requests\/s$/,
      /^2\. status read, 100 attempts \| p50 latency$/,
      /^3\. quote, 1 source × 3 providers \| p95 over the floor \(1 × 200 ms\)$/,
      // The source gas figure at 3 sources (one on mainnet, one on base, the target USDC on arbitrum), 3 quotes a side.
      /^3\. quote, 3 sources × 3 providers, source gas \| p50 with source gas \(on chain 42161 ×1, chain 1 ×1, chain 8453 ×1\)$/,
      /^3\. quote, 3 sources × 3 providers, source gas \| p95 with source gas/,
      // The same with the winning provider answering last (the chains read only once it has answered).
      /^3\. quote, 3 sources × 3 providers, source gas \| p95 with source gas .*, across \(the winner\) answering last$/,
      /^3\. quote, mayan hanging \| answer time/,
      /^4\. webhooks, fast receiver, paced \(\d+ attempts\/s\) \| append → verified at the receiver, p95$/,
      /^4\. webhooks, another partner black-holed \(\d+ attempts\/s\) \| measured partner's p95$/,
      /^4\. webhooks, fast receiver, burst of \d+ \| deliveries\/s$/,
      /^5\. memory and boot \| boot of `npm run service`/,
      /^5\. memory and boot \| service RSS after the signed ping load$/,
      /^5\. memory and boot \| service RSS after quotes of 1 source$/,
      /^7\. history \| spawn to a served signed ping, 200 attempts, 20 wallets$/,
      /^7\. history \| search by wallet p50, 400 attempts, one wallet$/,
      /^7\. history \| webhook list p50, 400 attempts, one wallet$/,
    ]) {
      expect(names).toContainEqual(expect.stringMatching(expected));
    }
    // Measured beside the same quotes without source gas, in the same run.
    expect(figures.filter((f) => f.scenario.endsWith(', source gas')).map((f) => f.baseline?.label)).toEqual(
      Array.from({ length: 4 }, () => 'QUOTE_SOURCE_GAS=false'),
    );
    for (const figure of figures) {
      expect(figure.samples).toHaveLength(1);
      // Memory is read from /proc (Linux); every other figure is a measurement (∞ where a webhook never came).
      if (figure.unit !== 'MB') expect(figure.samples.some(Number.isNaN)).toBe(false);
    }
    expect(readFileSync(out, 'utf8')).toBe(markdown);
    expect(markdown.split('\n').filter((line) => line.startsWith('| '))).toHaveLength(figures.length + 2);
  }, 180_000);

  const kafka = probeKafkaBroker();
  if (!kafka.available)
    process.stdout.write(`6. distributed: skipped, no Kafka broker here (${kafka.reason})\n`);
  // Skipped where no Kafka broker can start (Java 17 and `npm run kafka:resolve`): the reason is printed above.
  (kafka.available ? it : it.skip)(
    'runs the distributed scenario (gateway → Kafka → feature, one replica) beside the one-process service',
    async () => {
      const out = join(dir, 'distributed.md');
      const { figures } = await runBench(benchOptions(['--smoke', '--only', 'distributed', '--out', out]));

      expect(figures.map((f) => `${f.scenario} | ${f.name}`)).toEqual(
        ['quote', 'status read'].flatMap((endpoint) =>
          ['requests/s', 'p50 latency', 'p99 latency', 'p50 latency, one at a time (5 in a row)'].map(
            (figure) => `6. distributed, 1 replica | ${endpoint} ${figure}`,
          ),
        ),
      );
      // The broker, the sandbox, the one-process service and the five apps are all stopped again (the broker's
      // watchdog shell is SIGKILLed as the broker exits, so it may take a moment to be gone).
      const deadline = Date.now() + 10_000;
      while (childPids(process.pid).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(childPids(process.pid).flatMap(commandLine)).toEqual([]);
      for (const figure of figures) {
        expect(figure.samples).toHaveLength(1);
        expect(figure.baseline?.samples).toHaveLength(1);
        expect(
          [...figure.samples, ...figure.baseline!.samples].every((v) => v > 0 && Number.isFinite(v)),
        ).toBe(true);
      }
    },
    180_000,
  );
});

/** A child's pid and command line, or nothing once it is gone. */
function commandLine(pid: number): string[] {
  try {
    return [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()}`];
  } catch {
    return [];
  }
}

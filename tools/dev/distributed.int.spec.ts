import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendantPids, isAlive, isPortFree, probeKafkaBroker, repoRoot, waitUntilGone } from '@svc/testing';

const kafka = probeKafkaBroker();
if (!kafka.available) {
  process.stdout.write(`npm run distributed: skipped, no Apache Kafka broker here (${kafka.reason})\n`);
}

/** A base port whose seven successors are free too (the layout is fixed from the base). */
async function freeBlock(): Promise<number> {
  for (;;) {
    const base = 12_000 + Math.floor(Math.random() * 20_000); // below the ephemeral range (32768+)
    let free = true;
    for (let p = base; p < base + 8 && free; p++) free = await isPortFree(p);
    if (free) return base;
  }
}

/**
 * `npm run distributed` for real (issue 25 item 4): the Kafka JVM, the sandbox and its anvil chains, the five apps
 * and the webhook receiver. It prints its fixed ports and the manifest's path; the partner CLI's `demo`, told only
 * SERVICE_URL and SANDBOX_MANIFEST_DIR as printed, settles an attempt whose webhooks the receiver verifies and prints;
 * then `kill <npm's pid>` stops every process it started and frees every port, with no error line (item 7).
 */
// Skipped without Java 17+ and the broker's jars (`npm run kafka:resolve`), and off Linux (/proc).
(kafka.available && process.platform === 'linux' ? describe : describe.skip)('npm run distributed', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'npm-distributed-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints fixed ports and the manifest, delivers verified webhooks, and stops everything with npm', async () => {
    const base = await freeBlock();
    const manifestDir = join(dir, 'sandbox');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DISTRIBUTED_BASE_PORT: String(base),
      SANDBOX_MANIFEST_DIR: manifestDir,
      DATA_DIR: join(dir, 'data'),
    };
    delete env['PARTNERS_FILE']; // the committed dev partners, their callbacks pointed at the receiver
    const npm = spawn('npm', ['run', 'distributed'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let tree: number[] = [];
    try {
      const deadline = Date.now() + 150_000;
      while (!/Ctrl-C .* stops everything/.test(stdout)) {
        if (Date.now() > deadline || npm.exitCode !== null)
          throw new Error(`npm run distributed did not come up:\n${stdout}${stderr}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const gateway = `http://127.0.0.1:${base}`;
      expect(stdout).toMatch(
        new RegExp(`gateway +${gateway} +\\(API, /docs\\) +ops http://127\\.0\\.0\\.1:${base + 1} `),
      );
      expect(stdout).toContain(`quoting                   http://127.0.0.1:${base + 2} `);
      expect(stdout).toContain(`webhook-dispatcher        http://127.0.0.1:${base + 5} `);
      expect(stdout).toContain(`provider sandbox          http://127.0.0.1:${base + 6} `);
      expect(stdout).toContain(`(manifest: ${join(manifestDir, 'manifest.json')})`);
      expect(existsSync(join(manifestDir, 'manifest.json'))).toBe(true);
      expect(stdout).toContain(`demo-partner  auth v2  callback http://127.0.0.1:${base + 7}/webhooks`);
      expect(stdout).toContain(
        `webhook receiver          http://127.0.0.1:${base + 7}  /webhooks /legacy-webhooks`,
      );
      expect(stdout).toContain(
        `try it:  SERVICE_URL=${gateway} SANDBOX_MANIFEST_DIR=${manifestDir} npm run partner -- ping`,
      );
      const kafkaPort = Number(/Kafka \(Apache Kafka\) +127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]);
      tree = descendantPids(npm.pid!);
      // npm, the supervisor, distributed.ts, the JVM, the sandbox, three anvils, five apps.
      expect(tree.length).toBeGreaterThanOrEqual(13);

      // The printed command, as printed: the CLI finds the manifest and the dev partner's secret by itself.
      const demo = spawnSync(
        process.execPath,
        ['tools/run-ts.js', 'tools/partner-cli/main.ts', 'demo', '--file', 'examples/quote-request.json'],
        {
          cwd: repoRoot,
          env: { ...process.env, SERVICE_URL: gateway, SANDBOX_MANIFEST_DIR: manifestDir },
          encoding: 'utf8',
          timeout: 90_000,
        },
      );
      expect([demo.status, demo.stderr]).toEqual([0, expect.anything()]);
      const attemptId = /"attemptId": "(at_[0-9a-f]+)"/.exec(demo.stdout)?.[1];
      expect(attemptId).toBeDefined();
      const settled = new RegExp(
        `\\[webhook\\] webhook settled +partner demo-partner {2}attempt ${attemptId} .*\\(signature verified\\)`,
      );
      const webhookBy = Date.now() + 30_000;
      while (!settled.test(stdout) && Date.now() < webhookBy) await new Promise((r) => setTimeout(r, 250));
      expect(stdout).toMatch(settled);

      process.kill(npm.pid!, 'SIGTERM'); // npm exits without passing it on: the supervisor sees its parent go

      expect(await waitUntilGone(tree, 30_000)).toEqual([]);
      for (const port of [...Array.from({ length: 8 }, (_, i) => base + i), kafkaPort])
        expect([port, await isPortFree(port)]).toEqual([port, true]);
      expect(stdout).toContain('npm run distributed: SIGTERM, stopping everything it started');
      // No error line on a clean stop: nothing on stderr, no app or sandbox line echoed (only errors are).
      expect(stderr).toBe('');
      expect(
        stdout
          .split('\n')
          .filter((l) => /^\[(sandbox|gateway|quoting|execution|settlement|webhook-)/.test(l)),
      ).toEqual([]);
    } finally {
      for (const pid of [...tree, ...descendantPids(npm.pid!)])
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 280_000);
});

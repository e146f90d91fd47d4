import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, repoRoot } from '@svc/testing';
import {
  capturedValues,
  type CommandBlock,
  commandsOf,
  fillPlaceholders,
  groupsOf,
  repositoryBlocks,
  type RunOptions,
} from './doc-commands';
import { FIXTURES, type FixtureSetup } from './doc-fixtures';

/**
 * Every command block of the README, docs/partners/, the SDK README and the examples' READMEs marked
 * `<!-- doc-test: run … -->` (tools/docs/doc-commands.ts), run as written through bash against one real `npm start`
 * (the command itself, as start.int.spec.ts runs it). The suite's only changes to a reader's machine are ports: npm
 * start listens on free ports (so the suite can run beside a developer's own npm start and other tests), the
 * commands get its URL as SERVICE_URL and its manifest folder as SANDBOX_MANIFEST_DIR, and the dev partners'
 * callback URLs point at its receiver's free port. Groups run at the same time; the README's first hour runs at a
 * human pace (20 s before each step), reaching `settled` and a verified `settled` webhook printed by the receiver.
 */

interface StepResult {
  at: string;
  seconds: number;
  ok: boolean;
  why: string;
}

const TAIL = 3000;
const blocks = repositoryBlocks(repoRoot);
const groups = groupsOf(blocks);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `text` as one bash script (`-e -o pipefail`: the first failing command ends it), stdout and stderr captured. */
function runShell(
  text: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', text], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a timeout kills npm and what npm started
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      output += `\n[doc-test] timed out after ${timeoutMs / 1000} s`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Every process whose parent chain leads to `root` (Linux /proc), as start.int.spec.ts reads it. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

/** The partner the suite's example backend acts as: the dev partners' settings, its callback the backend's port. */
const EXAMPLE_BACKEND_PARTNER = {
  partnerId: 'doc-test-backend-partner',
  secret: 'doc-test-only-secret-0123456789abcdef',
};

/** Stops a dev environment the suite started: SIGTERM to npm (it stops what it started), then SIGKILL what is left. */
async function stopTree(npm: ChildProcess | undefined): Promise<void> {
  if (npm?.pid === undefined) return;
  const tree = descendants(npm.pid);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(npm.pid, 'SIGTERM'); // npm start stops everything it started (start.int.spec.ts)
  } catch {
    // already gone
  }
  const until = Date.now() + 15_000;
  while (tree.some(alive) && Date.now() < until) await sleep(250);
  for (const pid of tree.filter(alive))
    try {
      process.kill(pid, 'SIGKILL'); // what did not stop in 15 s
    } catch {
      // stopped meanwhile
    }
}

(process.platform === 'linux' ? describe : describe.skip)(
  'every command block of the documentation, against what npm start runs',
  () => {
    let scratch: string;
    let npm: ChildProcess | undefined;
    let backend: ChildProcess | undefined;
    let backendPort = 0;
    let backendOutput = '';
    let startOutput = '';
    let commandEnv: NodeJS.ProcessEnv;
    const tarballsBefore = new Set(readdirSync(repoRoot).filter((f) => f.endsWith('.tgz')));
    const results = new Map<string, Promise<StepResult[]>>();
    const startedAt = Date.now();
    const log: string[] = [];
    const note = (line: string) =>
      log.push(`+${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)}s  ${line}`);

    /** Waits for the receiver's line for a verified `event` webhook of `attemptId`. */
    async function verifiedWebhook(
      event: string,
      attemptId: string,
      timeoutMs: number,
    ): Promise<string | null> {
      const pattern = new RegExp(
        `\\[webhook\\] webhook ${event}\\s+partner \\S+\\s+attempt ${attemptId}\\s.*\\(signature verified\\)`,
      );
      const until = Date.now() + timeoutMs;
      for (;;) {
        const line = startOutput.split('\n').find((l) => pattern.test(l));
        if (line !== undefined || Date.now() > until) return line ?? null;
        await sleep(250);
      }
    }

    async function runBlock(block: CommandBlock, options: RunOptions, values: Map<string, string>) {
      const at = `${block.file}:${block.line}`;
      const setup: FixtureSetup =
        options.fixture === null
          ? {}
          : FIXTURES[options.fixture]({ root: repoRoot, scratch, exampleBackendPort: backendPort });
      const began = Date.now();
      const commands = commandsOf(block.text);
      let output = '';
      let code: number | null = 0;
      for (const [i, written] of commands.entries()) {
        let command = fillPlaceholders(written, values); // from what the commands before it printed
        for (const [from, to] of Object.entries(setup.rewrite ?? {})) command = command.split(from).join(to);
        note(`${at} runs: ${command.split('\n')[0]}`);
        const ran = await runShell(command, setup.cwd ?? repoRoot, { ...commandEnv, ...setup.env }, 180_000);
        output += ran.output;
        code = ran.code;
        capturedValues(ran.output, values);
        const last = i === commands.length - 1;
        if (code !== 0 && !(last && code === options.exit)) break;
      }
      const seconds = (Date.now() - began) / 1000;
      const problems = [
        ...(code === options.exit ? [] : [`exit code ${code}, not ${options.exit}`]),
        ...options.expect.filter((e) => !output.includes(e)).map((e) => `output lacks ${JSON.stringify(e)}`),
      ];
      if (problems.length === 0 && options.webhook !== null) {
        const attemptId = values.get('attemptId');
        const line = attemptId ? await verifiedWebhook(options.webhook, attemptId, 20_000) : null;
        if (line === null)
          problems.push(`npm start printed no verified ${options.webhook} webhook for attempt ${attemptId}`);
        else note(`${at} receiver: ${line.trim()}`);
      }
      note(`${at} ${problems.length === 0 ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      return {
        at,
        seconds,
        ok: problems.length === 0,
        why:
          problems.length === 0
            ? ''
            : `${problems.join('; ')}\n--- output (tail) ---\n${output.slice(-TAIL)}`,
      };
    }

    /** A group's blocks one after another; a failed block ends the group (the next ones build on it). */
    async function runGroup(name: string, members: CommandBlock[]): Promise<StepResult[]> {
      const first = members[0]?.marker;
      const after = first?.kind === 'run' ? first.options.after : null;
      if (after !== null) await results.get(after)?.catch(() => undefined);
      const values = new Map<string, string>();
      const steps: StepResult[] = [];
      for (const block of members) {
        if (block.marker?.kind !== 'run') continue;
        const { options } = block.marker;
        if (options.pauseSeconds > 0) {
          note(`${name}: pause ${options.pauseSeconds} s (a person reading the answer)`);
          await sleep(options.pauseSeconds * 1000);
        }
        const step = await runBlock(block, options, values).catch((err: Error): StepResult => ({
          at: `${block.file}:${block.line}`,
          seconds: 0,
          ok: false,
          why: err.message,
        }));
        steps.push(step);
        if (!step.ok) break;
      }
      return steps;
    }

    beforeAll(async () => {
      scratch = mkdtempSync(join(tmpdir(), 'doc-commands-'));
      const [servicePort, opsPort, receiverPort] = [
        await findFreePort(),
        await findFreePort(),
        await findFreePort(),
      ];
      // A port none of the three above is (two calls can give the same free port).
      do backendPort = await findFreePort();
      while ([servicePort, opsPort, receiverPort].includes(backendPort));
      // The committed dev partners, their callbacks on the receiver's free port instead of 4000, and one more partner
      // whose callback is the example backend's port: the backend's order status comes from its webhooks, while the
      // first hour's come to npm start's receiver.
      const partnersFile = join(scratch, 'partners.json');
      const dev = JSON.parse(
        readFileSync(join(repoRoot, 'config', 'partners.dev.json'), 'utf8').replace(
          /http:\/\/127\.0\.0\.1:4000\//g,
          `http://127.0.0.1:${receiverPort}/`,
        ),
      ) as { partners: Record<string, unknown>[] };
      dev.partners.push({
        ...dev.partners[0],
        partnerId: EXAMPLE_BACKEND_PARTNER.partnerId,
        secret: EXAMPLE_BACKEND_PARTNER.secret,
        callbackUrl: `http://127.0.0.1:${backendPort}/webhooks`,
      });
      writeFileSync(partnersFile, JSON.stringify(dev, null, 2));
      const manifestDir = join(scratch, 'sandbox');
      // The example backend first, as its README's first block starts it (npm run example:partner-backend with the
      // sandbox's manifest, then npm start), on its free port and as the partner whose callback it is. Started
      // before npm start, so none of npm start's own free ports can be the one chosen for it.
      const backendDeadline = Date.now() + 60_000;
      backend = spawn('npm', ['run', 'example:partner-backend'], {
        cwd: repoRoot,
        env: {
          ...process.env,
          SERVICE_URL: `http://127.0.0.1:${servicePort}`,
          SANDBOX_MANIFEST: join(manifestDir, 'manifest.json'),
          EXAMPLE_PORT: String(backendPort),
          EXAMPLE_DATA_DIR: join(scratch, 'partner-backend'),
          PARTNER_ID: EXAMPLE_BACKEND_PARTNER.partnerId,
          PARTNER_SECRET: EXAMPLE_BACKEND_PARTNER.secret,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      backend.stdout!.on('data', (c: Buffer) => (backendOutput += c.toString()));
      backend.stderr!.on('data', (c: Buffer) => (backendOutput += c.toString()));
      while (!backendOutput.includes(`partner backend on http://127.0.0.1:${backendPort}`)) {
        if (Date.now() > backendDeadline || backend.exitCode !== null)
          throw new Error(`the example backend did not come up:\n${backendOutput}`);
        await sleep(250);
      }
      note(`example backend is up on ${backendPort}`);
      npm = spawn('npm', ['start'], {
        cwd: repoRoot,
        env: {
          ...process.env,
          SANDBOX_PORT: '0',
          SANDBOX_MANIFEST_DIR: manifestDir,
          DATA_DIR: join(scratch, 'data'),
          PORT: String(servicePort),
          OPS_PORT: String(opsPort),
          PARTNERS_FILE: partnersFile,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      npm.stdout!.on('data', (c: Buffer) => (startOutput += c.toString()));
      npm.stderr!.on('data', (c: Buffer) => (startOutput += c.toString()));
      const deadline = Date.now() + 120_000;
      while (!/Ctrl-C .* stops everything/.test(startOutput)) {
        if (Date.now() > deadline || npm.exitCode !== null)
          throw new Error(`npm start did not come up:\n${startOutput}`);
        await sleep(250);
      }
      expect(startOutput).toContain(`webhook receiver   http://127.0.0.1:${receiverPort}`);
      const url = /intent service\s+(http:\/\/\S+)/.exec(startOutput)?.[1];
      note(`npm start is up: ${url}`);
      commandEnv = { ...process.env, SERVICE_URL: url, SANDBOX_MANIFEST_DIR: manifestDir };
      for (const [name, members] of groups) results.set(name, runGroup(name, members));
    }, 150_000);

    afterAll(async () => {
      await stopTree(backend);
      await stopTree(npm);
      for (const file of readdirSync(repoRoot))
        if (file.endsWith('.tgz') && !tarballsBefore.has(file)) rmSync(join(repoRoot, file), { force: true });
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      process.stdout.write(`doc-commands timeline:\n${log.join('\n')}\n`);
    }, 30_000);

    it.each([...groups.keys()])(
      'group %s: every block exits as its marker says, its output as expected',
      async (name) => {
        const steps = await results.get(name)!;
        const members = groups.get(name)!.length;
        expect(steps.filter((s) => !s.ok).map((s) => `${s.at}: ${s.why}`)).toEqual([]);
        expect(steps.length).toBe(members);
      },
      420_000,
    );
  },
);

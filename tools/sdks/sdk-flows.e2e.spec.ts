import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient, signWebhook } from '@intent-service/partner-client';
import { captureLines, findFreePort, repoRoot, spawnEntry, stopChild, waitForLine } from '@svc/testing';
import { buildGoPrograms, setupPython, VENV_PYTHON } from './toolchains';

/**
 * The three partner SDKs end to end against ONE running service: what `npm start` runs (tools/dev/start.ts: the
 * provider sandbox's chains, providers and fillers, and the standalone service). For each language, two programs
 * run at the same time, each as its own partner with its own funded sandbox wallet:
 *
 * - the quickstart the language's guide in docs/partners/ walks through: it listens for its webhooks, then pings,
 *   quotes two sources, prepares, runs the wallet's part with the SDK's own wallet helper, reports `submitted`,
 *   follows the live stream to the end and calls every other operation of docs/openapi.json, and makes one error of
 *   each family on purpose; it prints `op <operationId> ok` per operation, `error <family> <code>` per error, and
 *   `settled <attemptId> webhook <eventId> verified` once its receiver verified the settled webhook;
 * - the language's example partner backend (examples/partner-backend*), driven through its HTTP routes like a
 *   partner's frontend would: checkout, the sandbox wallet's pay, then its order until a verified settled webhook.
 *
 * What each program says is checked against the service itself (the attempt's status, the partner's webhook events).
 */
const operationIds = Object.values(
  (
    JSON.parse(readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    }
  ).paths,
)
  .flatMap((ops) => Object.values(ops).map((op) => op.operationId))
  .sort();
const errorCodes = new Set(
  (
    JSON.parse(readFileSync(join(repoRoot, 'sdks', 'vectors', 'errors.json'), 'utf8')) as {
      cases: { code: string }[];
    }
  ).cases.map((c) => c.code),
);

type Language = 'typescript' | 'python' | 'go';
type Role = 'quickstart' | 'backend';
const LANGUAGES: readonly Language[] = ['typescript', 'python', 'go'];
/**
 * One partner and one funded sandbox wallet (manifest `wallets.users[N]`) per program: nothing shared but the service.
 * Each language signs one way in one program and the other way in the other (v2, and the legacy v1).
 */
const PROGRAMS: readonly { language: Language; role: Role; user: number; authVersion: 1 | 2 }[] = [
  { language: 'typescript', role: 'quickstart', user: 0, authVersion: 1 },
  { language: 'typescript', role: 'backend', user: 1, authVersion: 2 },
  { language: 'python', role: 'quickstart', user: 2, authVersion: 2 },
  { language: 'python', role: 'backend', user: 3, authVersion: 1 },
  { language: 'go', role: 'quickstart', user: 4, authVersion: 2 },
  { language: 'go', role: 'backend', user: 5, authVersion: 1 },
];
const partnerOf = (language: Language, role: Role) => ({
  partnerId: `${language}-${role}`,
  secret: `dev-only-${language}-${role}-secret`,
});

/** Toolchains present on this machine decide what runs; a missing one is a one-line skip, a failed set-up a failure. */
const onPath = (command: string) =>
  (process.env['PATH'] ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const missing: Partial<Record<Language, string>> = {
  ...(onPath('python3') ? {} : { python: 'python3 is not on PATH' }),
  ...(onPath('go') ? {} : { go: 'go is not on PATH' }),
};
for (const [language, reason] of Object.entries(missing))
  process.stdout.write(`sdk-flows: the ${language} SDK's flows skipped: ${reason}\n`);
// SDK_FLOWS=python,go runs only those languages' flows (while working on one SDK).
const only = process.env['SDK_FLOWS']?.split(',').map((l) => l.trim());
for (const language of ['typescript', 'python', 'go'] as const)
  if (only && !only.includes(language)) missing[language] ??= `not in SDK_FLOWS=${only.join(',')}`;
const runs = (language: Language) => missing[language] === undefined;

/** The marker the partner guides put before the block that runs their quickstart (docs/partners/<language>.md). */
const GUIDE_MARK =
  '<!-- doc-test: skip needs npm start running in another terminal; tools/sdks/sdk-flows.e2e.spec.ts runs this block as written against npm start -->';
function guideCommand(language: Language): string {
  const guide = readFileSync(join(repoRoot, 'docs', 'partners', `${language}.md`), 'utf8');
  const block = guide.split(GUIDE_MARK)[1]?.match(/^\s*```sh\n([\s\S]*?)\n```/);
  if (!block) throw new Error(`docs/partners/${language}.md has no sh block after its quickstart marker`);
  return block[1];
}

interface Outcome {
  code: number | null;
  lines: string[];
}

describe('the partner SDKs end to end against one npm start', () => {
  let dir: string;
  let start: ChildProcess | undefined;
  let serviceUrl: string;
  let manifestPath: string;
  let manifest: {
    tokens: { chainId: number; symbol: string; address: string }[];
    wallets: { users: { address: string }[] };
  };
  const ports = new Map<string, number>();
  const children: ChildProcess[] = [];
  const quickstarts = new Map<Language, Promise<Outcome>>();
  const backends = new Map<Language, Promise<{ url: string; lines: string[] }>>();
  const commands = new Map<string, { command: string; args: string[] }>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-flows-'));
    const setupLog: string[] = [];
    if (runs('python')) {
      const python = setupPython((l) => setupLog.push(l));
      if (!python.ok) throw new Error(`the Python SDK's set-up: ${python.reason}`);
    }
    let goBin: Record<string, string> = {};
    if (runs('go')) {
      const go = buildGoPrograms((l) => setupLog.push(l));
      if (!go.ok) throw new Error(`the Go programs' build: ${go.reason}`);
      goBin = go.value;
    }
    const runTs = (entry: string) => ({
      command: process.execPath,
      args: [join(repoRoot, 'tools', 'run-ts.js'), entry],
    });
    commands.set('typescript-backend', runTs('examples/partner-backend/src/main.ts'));
    commands.set('python-backend', {
      command: VENV_PYTHON,
      args: [join(repoRoot, 'examples/partner-backend-python/main.py')],
    });
    // Each quickstart runs as its guide says, through bash: the command of the block the guide marks.
    for (const language of LANGUAGES)
      commands.set(`${language}-quickstart`, { command: 'bash', args: ['-c', guideCommand(language)] });
    commands.set('go-backend', { command: goBin['go-partner-backend'] ?? 'go-partner-backend', args: [] });

    // npm start runs with DEV_WEBHOOK_RECEIVER=off: every callback port is left to the program that owns it.
    for (const { language, role } of PROGRAMS) ports.set(`${language}-${role}`, await findFreePort());
    const partnersFile = join(dir, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({
        development: true,
        partners: PROGRAMS.map(({ language, role, authVersion }) => ({
          ...partnerOf(language, role),
          authVersion,
          callbackUrl: `http://127.0.0.1:${ports.get(`${language}-${role}`)}/webhooks`,
          allowedProviders: ['relay', 'across', 'mayan'],
          rateLimitPerMinute: 600,
          enabled: true,
        })),
      }),
    );

    const startLines: string[] = [];
    start = spawnEntry(
      'tools/dev/start.ts',
      {
        ...process.env,
        PORT: '0',
        OPS_PORT: '0',
        DATA_DIR: join(dir, 'data'),
        SANDBOX_PORT: '0',
        SANDBOX_MANIFEST_DIR: dir,
        PARTNERS_FILE: partnersFile,
        DEV_WEBHOOK_RECEIVER: 'off',
        SETTLEMENT_TICK_MS: '200',
        WEBHOOK_TICK_MS: '200',
      },
      (line) => startLines.push(line),
    );
    [, serviceUrl] = await waitForLine(start, startLines, /^intent service\s+(http:\/\/\S+)/, 90_000);
    manifestPath = join(dir, 'manifest.json');
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as typeof manifest;

    for (const { language, role, user, authVersion } of PROGRAMS) {
      if (!runs(language)) continue;
      const name = `${language}-${role}`;
      const port = ports.get(name)!;
      const { command, args } = commands.get(name)!;
      const child = spawn(command, args, {
        cwd: repoRoot,
        env: {
          ...process.env,
          SERVICE_URL: serviceUrl,
          ...(({ partnerId, secret }) => ({ PARTNER_ID: partnerId, PARTNER_SECRET: secret }))(
            partnerOf(language, role),
          ),
          PARTNER_AUTH_VERSION: String(authVersion),
          SANDBOX_USER: String(user),
          // A quickstart finds the manifest as after npm start (its folder), a backend is given the file.
          ...(role === 'quickstart'
            ? { WEBHOOK_PORT: String(port), SANDBOX_MANIFEST_DIR: dir }
            : {
                SANDBOX_MANIFEST: manifestPath,
                EXAMPLE_PORT: String(port),
                EXAMPLE_DATA_DIR: join(dir, name),
              }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group: the guide's command may start a child of its own
      });
      children.push(child);
      const lines: string[] = [];
      captureLines(child, (line) => lines.push(line));
      if (role === 'quickstart') {
        quickstarts.set(
          language,
          new Promise((resolve) => {
            child.once('error', (error) => resolve({ code: null, lines: [...lines, String(error)] }));
            child.once('exit', (code) => setTimeout(() => resolve({ code, lines }), 50));
          }),
        );
      } else {
        const ready = waitForLine(
          child,
          lines,
          /(?:listening on|partner backend on) (http:\/\/\S+)/,
          60_000,
        ).then(([, url]) => ({ url, lines }));
        // Awaited by its test; a failure to start is that test's failure, not an unhandled rejection.
        ready.catch(() => undefined);
        backends.set(language, ready);
      }
    }
  }, 300_000);

  afterAll(async () => {
    for (const child of children)
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    await Promise.all(children.map((child) => stopChild(child)));
    if (start) await stopChild(start, 10_000);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const serviceClient = (language: Language, role: Role) =>
    new PartnerClient({
      baseUrl: serviceUrl,
      ...partnerOf(language, role),
      authVersion: PROGRAMS.find((p) => p.language === language && p.role === role)!.authVersion,
    });

  describe.each(LANGUAGES)('%s', (language) => {
    const itRuns = runs(language) ? it : it.skip;

    itRuns(
      'the quickstart calls every operation, makes each error family, and ends settled with a verified webhook',
      async () => {
        const { code, lines } = await quickstarts.get(language)!;
        const transcript = `${language} quickstart (exit ${code}):\n${lines.join('\n')}`;
        // The whole transcript when it failed (stderr says why): jest's diff of a long string shows a few lines only.
        if (code !== 0) throw new Error(transcript);
        const ops = new Set(lines.flatMap((l) => /^op (\w+) ok(?: .*)?$/.exec(l)?.slice(1) ?? []));
        expect({ ops: [...ops].sort(), transcript }).toEqual({ ops: operationIds, transcript });
        const errors = lines.flatMap((l) => {
          const m = /^error (\w+) (\w+)$/.exec(l);
          return m ? [{ family: m[1], code: m[2] }] : [];
        });
        expect(errors.map((e) => e.family).sort()).toEqual(['auth', 'not_found', 'validation']);
        for (const e of errors) expect(errorCodes.has(e.code)).toBe(true);
        const settled = lines.map((l) => /^settled (\S+) webhook (\S+) verified$/.exec(l)).find(Boolean);
        expect({ settled: Boolean(settled), code, transcript }).toEqual({
          settled: true,
          code: 0,
          transcript,
        });

        // The service agrees: the attempt settled, and the verified event is its settled webhook, delivered.
        const [, attemptId, eventId] = settled!;
        const client = serviceClient(language, 'quickstart');
        expect((await client.status(attemptId)).body).toMatchObject({ attemptId, status: 'settled' });
        const events = (await client.webhookEvents()).body as {
          events: { eventId: string; event: string; attemptId: string; deliveries: { outcome: string }[] }[];
        };
        const event = events.events.find((e) => e.eventId === eventId);
        expect(event).toMatchObject({ event: 'settled', attemptId });
        expect(event!.deliveries.some((d) => d.outcome === 'delivered')).toBe(true);
      },
      240_000,
    );

    itRuns(
      'the example backend: checkout, the sandbox wallet, a verified settled webhook and the same events live',
      async () => {
        const { url, lines } = await backends.get(language)!;
        const call = async (method: string, path: string, body?: unknown) => {
          const res = await fetch(`${url}${path}`, {
            method,
            headers: { 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        const usdc = (chainId: number) =>
          manifest.tokens.find((t) => t.chainId === chainId && t.symbol === 'USDC')!.address;
        const wallet =
          manifest.wallets.users[PROGRAMS.find((p) => p.language === language && p.role === 'backend')!.user]
            .address;
        const checkout = await call('POST', '/checkout', {
          walletAddress: wallet,
          recipient: wallet,
          sources: [{ chainId: 1, address: usdc(1), amount: '5000000', symbol: 'USDC', decimals: 6 }],
          target: {
            chainId: 8453,
            address: usdc(8453),
            targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
          },
          allowedProviders: ['relay'],
        });
        expect({ ...checkout, lines }).toMatchObject({ status: 200, body: { status: 'prepared' } });
        const attemptId = checkout.body['attemptId'] as string;
        const paid = await call('POST', `/sandbox/orders/${attemptId}/pay`);
        expect({ ...paid, lines }).toMatchObject({ status: 200 });

        type Order = {
          status: string;
          webhooks: { eventId: string; event: string }[];
          live: { eventId: string; event: string }[];
        };
        const deadline = Date.now() + 120_000;
        let order: Order;
        for (;;) {
          order = (await call('GET', `/orders/${attemptId}`)).body as unknown as Order;
          if (order.status === 'settled' && order.live.some((e) => e.event === 'settled')) break;
          if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(order)}\n${lines.join('\n')}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const kinds = order.webhooks.map((w) => w.event);
        expect(kinds[0]).toBe('wallet_submitted');
        expect(kinds.at(-1)).toBe('settled');
        expect(new Set(order.webhooks.map((w) => w.eventId)).size).toBe(order.webhooks.length);
        expect(order.live.map(({ eventId, event }) => ({ eventId, event }))).toEqual(
          order.webhooks.map(({ eventId, event }) => ({ eventId, event })),
        );
        expect(
          lines.filter((l) =>
            new RegExp(`^webhook settled attempt ${attemptId} eventId \\S+ \\(verified\\)$`).test(l),
          ),
        ).toHaveLength(1);
        expect((await serviceClient(language, 'backend').status(attemptId)).body).toMatchObject({
          status: 'settled',
        });

        // A webhook signed with another secret is refused and changes nothing.
        const body = JSON.stringify({ eventId: 'evt_forged', event: 'settled', attemptId });
        const ts = String(Date.now());
        const forged = await fetch(`${url}/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-partner-id': partnerOf(language, 'backend').partnerId,
            'x-timestamp': ts,
            'x-service-event-id': 'evt_forged',
            'x-signature': signWebhook('not-the-partner-secret', ts, body),
          },
          body,
        });
        expect(forged.status).toBe(401);
        expect(await forged.json()).toEqual({ error: 'signature_invalid' });
        expect(lines.some((l) => l.includes('evt_forged'))).toBe(false);
      },
      240_000,
    );

    itRuns(
      'the example backend: a redelivered webhook (control plane) arrives again and is processed once',
      async () => {
        const { lines } = await backends.get(language)!;
        const client = serviceClient(language, 'backend');
        type Page = {
          events: { eventId: string; event: string; attemptId: string; deliveries: { outcome: string }[] }[];
        };
        const delivered = (page: Page, eventId: string) =>
          (page.events.find((e) => e.eventId === eventId)?.deliveries ?? []).filter(
            (d) => d.outcome === 'delivered',
          ).length;
        const settled = ((await client.webhookEvents()).body as Page).events.find(
          (e) => e.event === 'settled',
        );
        expect(settled).toBeDefined();
        const before = delivered((await client.webhookEvents()).body as Page, settled!.eventId);
        expect((await client.redeliverWebhook(settled!.eventId)).status).toBe(200);
        const deadline = Date.now() + 30_000;
        while (delivered((await client.webhookEvents()).body as Page, settled!.eventId) <= before) {
          if (Date.now() > deadline)
            throw new Error(`no second delivery of ${settled!.eventId}\n${lines.join('\n')}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        // Delivered (2xx) twice, logged as processed once: the backend deduplicates by eventId.
        expect(lines.filter((l) => l.includes(settled!.eventId) && /\(verified\)$/.test(l))).toHaveLength(1);
      },
      60_000,
    );
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPublicClient, defineChain, erc20Abi, type Hex, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type ChildProcess } from 'node:child_process';
import {
  type CountingWebhookReceiver,
  type SandboxProcess,
  spawnEntry,
  startCountingWebhookReceiver,
  startSandboxProcess,
  stopChild,
  waitForLine,
} from '@svc/testing';
import { runCli } from './run-cli';

const repoRoot = resolve(__dirname, '..', '..');
const example = JSON.parse(readFileSync(join(repoRoot, 'examples', 'quote-request.json'), 'utf8')) as {
  walletAddress: string;
  recipient: string;
  target: { chainId: number; address: string };
};

/**
 * The partner CLI's sandbox-only commands against the real thing: the provider sandbox (three anvil chains and the
 * providers' simulators) and the standalone service as child processes. `demo` and `sandbox-wallet` do the wallet's
 * part with the sandbox's funded users and follow the attempt to `settled`; they refuse anything but the sandbox.
 */
describe('partner CLI: demo and sandbox-wallet on the provider sandbox', () => {
  const partner = { partnerId: 'cli-partner', secret: 'cli-partner-secret-0123456789abcdef', authVersion: 2 };
  let sandbox: SandboxProcess;
  let receiver: CountingWebhookReceiver;
  let serviceProcess: ChildProcess | undefined;
  let serviceUrl: string;
  let work: string;
  let manifestDir: string;

  // The sandbox and the standalone service as child processes, configured as `npm start` configures them.
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'partner-cli-wallet-'));
    receiver = await startCountingWebhookReceiver(partner);
    sandbox = await startSandboxProcess();
    manifestDir = join(work, 'sandbox');
    mkdirSync(manifestDir);
    writeFileSync(join(manifestDir, 'manifest.json'), JSON.stringify(sandbox.manifest));
    writeFileSync(
      join(work, 'partners.json'),
      JSON.stringify({ partners: [{ ...partner, callbackUrl: receiver.url, rateLimitPerMinute: 100_000 }] }),
    );
    mkdirSync(join(work, 'data'));
    const lines: string[] = [];
    serviceProcess = spawnEntry(
      'apps/standalone/src/main.ts',
      {
        ...process.env,
        ...sandbox.manifest.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(work, 'data'),
        EVENT_STORE: 'sqlite',
        LOG_LEVEL: 'warn',
        PARTNERS_FILE: join(work, 'partners.json'),
        SETTLEMENT_TICK_MS: '100',
        WEBHOOK_TICK_MS: '200',
      },
      (line) => lines.push(line),
    );
    [, serviceUrl] = await waitForLine(serviceProcess, lines, /listening on (http:\/\/\S+)/, 60_000);
  }, 90_000);
  afterAll(async () => {
    if (serviceProcess) await stopChild(serviceProcess);
    await sandbox?.stop();
    await receiver?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function cli(argv: string[], env: Record<string, string> = {}, client?: { fetch: typeof fetch }) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      {
        SERVICE_URL: serviceUrl,
        PARTNER_ID: partner.partnerId,
        PARTNER_SECRET: partner.secret,
        SANDBOX_MANIFEST_DIR: manifestDir,
        ...env,
      },
      {
        repoRoot: work,
        cwd: work,
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
        sandbox: { statusPollMs: 200, followLimitMs: 45_000 },
        ...(client ? { client } : {}),
      },
    );
    return { code, stdout, stderr };
  }
  const user = (i: number) => sandbox.manifest.wallets.users[i];
  const reader = (chainId: number) => {
    const entry = sandbox.manifest.chains.find((c) => c.chainId === chainId)!;
    const chain = defineChain({
      id: chainId,
      name: entry.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
    return createPublicClient({ chain, transport: http(entry.rpcUrl) });
  };
  /** The example body, for a fresh recipient (so its balance shows exactly what this run delivered). */
  const quoteFile = (name: string, walletAddress = example.walletAddress) => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const file = join(work, `${name}.json`);
    writeFileSync(file, JSON.stringify({ ...example, walletAddress, recipient }));
    return { file, recipient };
  };
  const printedTxs = (stdout: string) =>
    [...stdout.matchAll(/chain (\d+) tx \d+\/\d+ to 0x[0-9a-fA-F]{40}: (0x[0-9a-f]{64})/g)].map((m) => ({
      chainId: Number(m[1]),
      hash: m[2] as Hex,
    }));
  const finalSnapshot = (stdout: string) =>
    JSON.parse(stdout.slice(stdout.lastIndexOf('HTTP 200 OK\n') + 'HTTP 200 OK\n'.length)) as {
      attemptId: string;
      status: string;
      walletAddress: string;
      settledOutputs: { chainId: number; amount: string }[];
    };
  const usdcBalance = (chainId: number, owner: string) =>
    reader(chainId).readContract({
      address: example.target.address as Hex,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner as Hex],
    });

  it('demo: two users at once, each quote → prepare → sign, send every chain action, submitted → settled', async () => {
    const runs = [
      { userIndex: 0, ...quoteFile('demo-0') },
      { userIndex: 3, ...quoteFile('demo-3') },
    ];
    const results = await Promise.all(
      runs.map((r) =>
        cli(['demo', '--file', r.file, ...(r.userIndex ? ['--user', String(r.userIndex)] : [])]),
      ),
    );
    for (const [i, run] of results.entries()) {
      const { userIndex, recipient } = runs[i];
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      // The example's walletAddress is users[0]; demo puts the wallet it signs with in the quote.
      expect(run.stdout.includes(`replaced by the sandbox wallet users[${userIndex}]`)).toBe(userIndex !== 0);
      expect(run.stdout).toMatch(/signed the walletAuthorization \(EIP-712\): 0x[0-9a-f]{130}/);
      expect(run.stdout).toContain('status settled');
      const snapshot = finalSnapshot(run.stdout);
      expect(snapshot.status).toBe('settled');
      expect(snapshot.walletAddress.toLowerCase()).toBe(user(userIndex).address.toLowerCase());

      // The example spends on two chains (USDC on 1, ETH on 42161): every printed hash is a mined transaction of
      // that user's wallet on its chain.
      const txs = printedTxs(run.stdout);
      expect(new Set(txs.map((t) => t.chainId))).toEqual(new Set([1, 42161]));
      for (const tx of txs) {
        const receipt = await reader(tx.chainId).getTransactionReceipt({ hash: tx.hash });
        expect(receipt.status).toBe('success');
        expect(receipt.from.toLowerCase()).toBe(user(userIndex).address.toLowerCase());
      }
      // What the service says settled is what reached the fresh recipient on chain.
      const settled = snapshot.settledOutputs.reduce((sum, o) => sum + parseUnits(o.amount, 6), 0n);
      expect(settled).toBeGreaterThan(0n);
      expect(await usdcBalance(example.target.chainId, recipient)).toBe(settled);
    }

    // What npm start's `[webhook]` lines show: the lifecycle events of each attempt, signed for the partner.
    const attemptIds = results.map((r) => finalSnapshot(r.stdout).attemptId);
    const eventsOf = (id: string) => receiver.received.filter((e) => e.attemptId === id).map((e) => e.event);
    for (
      let waited = 0;
      waited < 10_000 && !attemptIds.every((id) => eventsOf(id).includes('settled'));
      waited += 100
    )
      await new Promise((r) => setTimeout(r, 100));
    for (const id of attemptIds)
      expect(eventsOf(id)).toEqual(['wallet_submitted', 'provider_pending', 'settled']);
  }, 60_000);

  it('sandbox-wallet: replays the earlier prepare, refuses another user, settles from a saved prepare response', async () => {
    const { file } = quoteFile('session', user(1).address);
    const quote = await cli(['quote', '--file', file]);
    expect(quote.code).toBe(0);
    const { intentSessionId } = JSON.parse(quote.stdout.replace(/^HTTP[^\n]*\n/, '')) as {
      intentSessionId: string;
    };
    const prepare = await cli(['prepare', intentSessionId]);
    expect(prepare.code).toBe(0);
    const { attemptId } = JSON.parse(prepare.stdout.replace(/^HTTP[^\n]*\n/, '')) as { attemptId: string };

    const wrong = await cli(['sandbox-wallet', intentSessionId, '--user', '2']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`refusing: attempt ${attemptId} is for wallet`);
    expect(wrong.stderr).toContain('run it with --user 1');
    expect(await reader(1).getTransactionCount({ address: user(2).address as Hex })).toBe(0);

    // Past the signable window (prepare's expiresAt, 30 s), the wallet must not start: nothing is signed or sent.
    const body = JSON.parse(prepare.stdout.replace(/^HTTP[^\n]*\n/, '')) as Record<string, unknown>;
    const stale = join(work, 'stale.json');
    writeFileSync(stale, JSON.stringify({ ...body, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    const late = await cli(['sandbox-wallet', stale, '--user', '1']);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`the signable window of attempt ${attemptId} closed at`);
    expect(late.stdout).not.toContain('signed');
    expect(await reader(1).getTransactionCount({ address: user(1).address as Hex })).toBe(0);

    // The same attempt from a saved prepare response, as `npm run partner -- prepare <id> > prepared.json` writes it.
    const saved = join(work, 'prepared.json');
    writeFileSync(
      saved,
      `\n> intent-service partner\n> node tools/run-ts.js tools/partner-cli/main.ts\n\n${prepare.stdout}`,
    );
    const run = await cli(['sandbox-wallet', saved, '--user', '1']);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    expect(finalSnapshot(run.stdout)).toMatchObject({ attemptId, status: 'settled' });

    // Settled: nothing left for a wallet to execute.
    const again = await cli(['sandbox-wallet', intentSessionId, '--user', '1']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`attempt ${attemptId} is settled, not prepared`);
  }, 60_000);

  it('refuses (exit 2, nothing signed or sent) without a manifest or when a chain RPC is not the sandbox anvil', async () => {
    const { file } = quoteFile('refused', user(4).address);
    const none = await cli(['demo', '--file', file, '--user', '4'], {
      SANDBOX_MANIFEST_DIR: join(work, 'nowhere'),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('refusing: no provider sandbox manifest at');

    // Chain 1's RPC replaced by the service itself: on loopback, but not anvil.
    const fake = join(work, 'fake-sandbox');
    mkdirSync(fake, { recursive: true });
    const manifest = sandbox.manifest;
    writeFileSync(
      join(fake, 'manifest.json'),
      JSON.stringify({
        ...manifest,
        chains: manifest.chains.map((c) => (c.chainId === 1 ? { ...c, rpcUrl: serviceUrl } : c)),
      }),
    );
    const notAnvil = await cli(['demo', '--file', file, '--user', '4'], { SANDBOX_MANIFEST_DIR: fake });
    expect(notAnvil.code).toBe(2);
    expect(notAnvil.stderr).toMatch(/refusing: .* not the sandbox's anvil/);
    // Refused before the quote: nothing was created, signed or sent.
    expect(notAnvil.stdout).toBe('');
    for (const chainId of [1, 42161]) {
      expect(await reader(chainId).getTransactionCount({ address: user(4).address as Hex })).toBe(0);
    }
  }, 60_000);

  it('refuses (exit 2, no request at all) a SERVICE_URL off loopback: a real service would take the quote (N-L5)', async () => {
    const { file } = quoteFile('elsewhere', user(4).address);
    // https://api.example reaches this very service, which would quote, prepare and settle as a production one would.
    const asked: string[] = [];
    const remote = ((url: string | URL, init?: RequestInit) => {
      asked.push(String(url));
      return fetch(String(url).replace('https://api.example', serviceUrl), init);
    }) as typeof fetch;
    const run = await cli(
      ['demo', '--file', file, '--user', '4'],
      { SERVICE_URL: 'https://api.example' },
      { fetch: remote },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refusing: SERVICE_URL https:\/\/api\.example is not on loopback/);
    expect(run.stdout).toBe('');
    expect(asked).toEqual([]);
    expect(await reader(1).getTransactionCount({ address: user(4).address as Hex })).toBe(0);
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  AcrossSpokePoolArtifact,
  repoRoot,
  signedRequest,
  startSandboxProcess,
  type SandboxProcess,
  sandboxWalletClients,
  sendInOrder,
} from '@svc/testing';
import { erc20Abi, type Hex, parseAbi, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

interface Leg {
  status: string;
  settledAmount?: string | null;
  settledAmountBasis?: string | null;
  destinationChainTxHash?: string | null;
  errorMessage?: string | null;
}

/** circlefin/evm-cctp-contracts src/v2/BaseTokenMessenger.sol, as Circle declares it. */
const MINT_AND_WITHDRAW = parseAbi([
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
]);

/** The sandbox's CCTP fast fee: 1 bps of the burned amount, rounded up (apps/provider-sandbox/src/cctp/cctp-route.ts). */
const cctpFee = (amount: bigint) => (amount + 9_999n) / 10_000n;

/**
 * Batched fills (issue 24 item 1, providers review N1, sandbox S13): the sandbox's Across filler puts every fill due
 * in its window into one SpokePool.multicall, as Across's relayer does. Two legs of one attempt, one leg of another
 * attempt to the same recipient, and a stranger's deposit to that recipient (an attempt never reported) are filled
 * in one transaction: each leg settles with exactly its own deposit's amount, the stranger's counts for nobody, and
 * no fill is rejected. Before per-deposit attribution, the first leg read settled with every transfer of the
 * transaction and the others were `fill_rejected` ("already the delivery of another leg") until the timeout.
 */
describe('batched fills on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'batched-fills-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      chains,
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const user = (i: number) => sandbox.manifest.wallets.users[i];
  const token = (chainId: number, symbol: string) => sandbox.token(chainId, symbol);
  const api = (method: string, path: string, body?: unknown) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method,
      path,
      body,
      ...(method === 'POST' ? { idempotencyKey: `k-${Math.random()}` } : {}),
      timestamp: Date.now(),
    });

  function wallet(i: number, chainId: number) {
    return sandboxWalletClients(sandbox.manifest, chainId, user(i).privateKey);
  }
  const baseUsdc = (address: string) =>
    wallet(0, 8453).reader.readContract({
      address: token(8453, 'USDC') as Hex,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as Hex],
    });

  /** quote → prepare for user i, USDC sources as [chainId, raw amount], Across only, to Base USDC at `recipient`. */
  async function prepared(i: number, sources: [number, string][], recipient: string) {
    const quote = (
      await api('POST', '/api/external/intents/quote', {
        walletAddress: user(i).address,
        recipient,
        sources: sources.map(([chainId, amount]) => ({
          chainId,
          address: token(chainId, 'USDC'),
          amount,
          symbol: 'USDC',
          decimals: 6,
        })),
        target: {
          chainId: 8453,
          address: token(8453, 'USDC'),
          targetToken: { address: token(8453, 'USDC'), symbol: 'USDC', decimals: 6 },
        },
        allowedProviders: ['across'],
      })
    ).json;
    expect(quote.quoteStatus).toBe('ready');
    const attempt = (
      await api('POST', `/api/external/intents/${quote.intentSessionId}/prepare`, {
        walletContext: { walletCapabilities: {} },
      })
    ).json;
    expect(attempt.status).toBe('prepared');
    return attempt;
  }

  async function execute(
    i: number,
    attempt: { chainActions: { chainId: number; transactions: { to: Hex; data: Hex; value: string }[] }[] },
  ) {
    const results: { chainId: number; txHashes: Hex[] }[] = [];
    for (const action of attempt.chainActions) {
      const txHashes = await sendInOrder(wallet(i, action.chainId), action.transactions);
      results.push({ chainId: action.chainId, txHashes });
    }
    return results;
  }

  const report = async (
    i: number,
    attempt: Parameters<typeof execute>[1] & { attemptId: string },
    chainResults: unknown,
  ) =>
    api('POST', `/api/external/attempts/${attempt.attemptId}/submitted`, {
      chainResults,
      walletAuthorization: {
        signature: await wallet(i, 1).account.signTypedData(
          (
            attempt as unknown as {
              walletAuthorization: Parameters<ReturnType<typeof privateKeyToAccount>['signTypedData']>[0];
            }
          ).walletAuthorization,
        ),
      },
      submittedAt: Date.now(),
    });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON; assertions check its shape
  async function until(attemptId: string, done: (s: any) => boolean, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = (await api('GET', `/api/external/attempts/${attemptId}/status`)).json;
      if (done(s) || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** The audit tool (`npm run audit`) on this test's store and the sandbox's chains, as an operator runs it. */
  function audit(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'tools', 'run-ts.js'), 'tools/audit/main.ts', ...argv],
      {
        cwd: repoRoot,
        env: { ...process.env, ...sandbox.manifest.env, DATA_DIR: dir, EVENT_STORE: 'sqlite' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON
  const legsOf = (s: any): Leg[] => s.perChainStatus.flatMap((c: { legs: Leg[] }) => c.legs);

  it('two legs of one attempt, a leg of another to the same recipient and a stranger in one multicall: each its own amount', async () => {
    // Every Across fill due within 6 s goes into one multicall (the deposits below are made within about 2 s).
    await sandbox.setFaults([{ provider: 'across', batchFillsMs: 6000 }]);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const a = await prepared(
      0,
      [
        [1, '30000000'],
        [42161, '20000000'],
      ],
      recipient,
    );
    const b = await prepared(1, [[1, '15000000']], recipient);
    const stranger = await prepared(2, [[42161, '12000000']], recipient);
    const before = await baseUsdc(recipient);
    const [ra, rb] = [await execute(0, a), await execute(1, b)];
    await execute(2, stranger);
    expect((await report(0, a, ra)).status).toBe(200);
    expect((await report(1, b, rb)).status).toBe(200);

    const [finalA, finalB] = await Promise.all([
      until(a.attemptId, (s) => s.status === 'settled'),
      until(b.attemptId, (s) => s.status === 'settled'),
    ]);
    const legs = [...legsOf(finalA), ...legsOf(finalB)];
    expect(legs.map((l) => [l.status, l.settledAmountBasis, l.errorMessage ?? null])).toEqual(
      legs.map(() => ['settled', 'exact', null]),
    );
    expect([finalA.status, finalB.status]).toEqual(['settled', 'settled']);
    const fillTx = legs[0].destinationChainTxHash as Hex;
    expect(legs.every((l) => l.destinationChainTxHash === fillTx)).toBe(true);

    // The fill is one multicall holding four FilledRelay records (the stranger's included), each leg's amount its own.
    const receipt = await wallet(0, 8453).reader.getTransactionReceipt({ hash: fillTx });
    const records = parseEventLogs({
      abi: AcrossSpokePoolArtifact.abi,
      logs: receipt.logs,
      eventName: 'FilledRelay',
    });
    expect(records).toHaveLength(4);
    const paid = records.map((r) => r.args.relayExecutionInfo.updatedOutputAmount);
    const received = (await baseUsdc(recipient)) - before;
    expect(paid.reduce((x, y) => x + y, 0n)).toBe(received);
    const settled = legs.map((l) => BigInt(l.settledAmount!));
    // Three legs, three of the four records' amounts; the one left over is the stranger's.
    expect([...settled].sort()).toEqual(paid.filter((p) => settled.includes(p)).sort());
    expect(settled.reduce((x, y) => x + y, 0n)).toBeLessThan(received);
    const strangerStatus = (await api('GET', `/api/external/attempts/${stranger.attemptId}/status`)).json;
    expect(strangerStatus.status).toBe('prepared');
  }, 90_000);

  // Batched CCTP mints (issue 24 item 6): with the sandbox's `cctp` switch, Across's Swap API routes USDC→USDC legs over
  // CCTP (TokenMessengerV2 depositForBurn), and the sandbox's finalizer mints every attested message bound for a chain
  // in one Multicall3 of receiveMessage calls, as Across's finalizer does. Two legs of one attempt and a stranger's burn
  // to the same recipient are minted in one transaction: each leg settles exact with its own mint (amount − fee), the
  // stranger's counts for nobody. Before CCTP attribution, a CCTP leg had no fill record and several transfers to the
  // recipient left it unattributable.
  it("two CCTP legs of one attempt and a stranger's burn to the same recipient in one mint batch: each leg its own amount", async () => {
    // Every attested burn due within 6 s is minted in one Multicall3 (the burns below are made within about 2 s).
    await sandbox.setFaults([{ provider: 'across', cctp: true, batchMintsMs: 6000 }]);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const a = await prepared(
      0,
      [
        [1, '30000000'],
        [42161, '20000000'],
      ],
      recipient,
    );
    const stranger = await prepared(2, [[1, '30000000']], recipient);
    // Each leg's transaction calls TokenMessengerV2 (the sandbox's, allowlisted by the manifest beside the SpokePool).
    const [spokePool, messenger] = (
      JSON.parse(sandbox.manifest.env.ACROSS_CONTRACTS) as Record<string, { targets: string[] }>
    )['1'].targets.map((a) => a.toLowerCase());
    expect(messenger).not.toBe(spokePool);
    for (const attempt of [a, stranger]) {
      const targets = attempt.chainActions.map((c: { transactions: { to: string }[] }) =>
        c.transactions.at(-1)!.to.toLowerCase(),
      );
      expect(targets.every((to: string) => to === messenger)).toBe(true);
    }
    const before = await baseUsdc(recipient);
    const ra = await execute(0, a);
    await execute(2, stranger);
    expect((await report(0, a, ra)).status).toBe(200);

    const finalA = await until(a.attemptId, (s) => s.status === 'settled', 60_000);
    const legs = legsOf(finalA);
    expect(legs.map((l) => [l.status, l.settledAmountBasis, l.errorMessage ?? null])).toEqual([
      ['settled', 'exact', null],
      ['settled', 'exact', null],
    ]);
    expect(finalA.status).toBe('settled');
    const mintTx = legs[0].destinationChainTxHash as Hex;
    expect(legs[1].destinationChainTxHash).toBe(mintTx);

    // One mint transaction, three MintAndWithdraw to the recipient (the stranger's included); each leg settles with
    // its own: 30 USDC less its fee from Ethereum, 20 USDC less its fee from Arbitrum. The stranger's 30 USDC burn
    // mints the same amount as leg A's Ethereum leg, from another wallet: told apart by the burn's message sender.
    const receipt = await wallet(0, 8453).reader.getTransactionReceipt({ hash: mintTx });
    const mints = parseEventLogs({
      abi: MINT_AND_WITHDRAW,
      logs: receipt.logs,
      eventName: 'MintAndWithdraw',
    });
    expect(mints.map((m) => m.args.mintRecipient)).toEqual([recipient, recipient, recipient]);
    expect(legs.map((l) => BigInt(l.settledAmount!))).toEqual([
      30_000_000n - cctpFee(30_000_000n),
      20_000_000n - cctpFee(20_000_000n),
    ]);
    const received = (await baseUsdc(recipient)) - before;
    expect(received).toBe(2n * (30_000_000n - cctpFee(30_000_000n)) + 20_000_000n - cctpFee(20_000_000n));
    const strangerStatus = (await api('GET', `/api/external/attempts/${stranger.attemptId}/status`)).json;
    expect(strangerStatus.status).toBe('prepared');
  }, 120_000);

  it('two attempts of one wallet burning the same amount to one recipient, minted in one batch: both settle, each with one message', async () => {
    // The two CCTP messages carry the same content (source domain, sender, token, recipient, amount, message sender,
    // max fee, hook data): nothing on chain tells which is whose, and each source transaction burnt one. Before, each
    // leg found its burn's content twice in the mint and claimed neither ("which is this leg's cannot be told"): both
    // attempts stayed unsettled until their timeout although both deposits had arrived.
    await sandbox.setFaults([{ provider: 'across', cctp: true, batchMintsMs: 6000 }]);
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const first = await prepared(3, [[1, '30000000']], recipient);
    const second = await prepared(3, [[1, '30000000']], recipient);
    const before = await baseUsdc(recipient);
    const r1 = await execute(3, first);
    const r2 = await execute(3, second);
    expect((await report(3, first, r1)).status).toBe(200);
    expect((await report(3, second, r2)).status).toBe(200);

    const finals = await Promise.all(
      [first, second].map((a) => until(a.attemptId, (s) => s.status === 'settled', 60_000)),
    );
    const legs = finals.flatMap(legsOf);
    expect(legs.map((l) => [l.status, l.settledAmountBasis, l.errorMessage ?? null])).toEqual([
      ['settled', 'exact', null],
      ['settled', 'exact', null],
    ]);
    expect(finals.map((s) => s.status)).toEqual(['settled', 'settled']);
    // One mint transaction for both; each leg settled with one message's amount, and together they are what arrived.
    expect(legs[1].destinationChainTxHash).toBe(legs[0].destinationChainTxHash);
    const each = 30_000_000n - cctpFee(30_000_000n);
    expect(legs.map((l) => BigInt(l.settledAmount!))).toEqual([each, each]);
    expect((await baseUsdc(recipient)) - before).toBe(2n * each);

    // The audit reads each leg's delivery again from the chain: the message each leg settled on, claimed by it.
    for (const attempt of [first, second]) {
      const audited = await audit(['attempt', attempt.attemptId, '--json', '--verify-chain']);
      const report = JSON.parse(audited.stdout) as {
        chainCheck: { mismatches: unknown[]; checks: { role: string; outcome: string; checked?: string }[] };
      };
      expect(report.chainCheck.mismatches).toEqual([]);
      expect(report.chainCheck.checks.filter((c) => c.role === 'fill').map((c) => c.outcome)).toEqual(['ok']);
      expect(audited.code).toBe(0);
    }
  }, 120_000);
});

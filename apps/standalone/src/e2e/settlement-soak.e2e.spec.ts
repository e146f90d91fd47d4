import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  BatchExecutorArtifact,
  type ChainResults,
  SandboxDriver,
  startSandboxProcess,
  type SandboxProcess,
} from '@svc/testing';
import { type Account, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * The settlement soak: about forty attempts in flight at once on the provider sandbox, across relay, across and mayan,
 * a share of them under the sandbox's scenarios (docs/sandbox.md: the last three digits of an amount pick the
 * provider's outcome), two batches holding two deposits each, one attempt left open with a bundle id only, and
 * evidence replayed from settled attempts. Every attempt must end in the state that matches the chain, every
 * settledOutputs must equal its own recipient's on-chain increase, and nothing replayed may settle.
 */

/** The scenario suffixes of apps/provider-sandbox/src/scenarios/sandbox-scenarios.ts. */
const S = {
  normal: 0,
  refund: 901,
  failureThenRefund: 902,
  finalFailure: 903,
  cancel: 904,
  revertedFill: 905,
  shortFill: 906,
  zeroFill: 907,
  wrongToken: 908,
  destinationActionFailed: 909,
  delayed: 910,
} as const;
const usdc = (units: number, suffix: number) => String(units * 1_000_000 + suffix);

interface Case {
  name: string;
  sources: [number, string, string][];
  providers?: string[];
  /** One EIP-7702 batch for each chain's calls (wallet_sendCalls). */
  batch?: boolean;
  /** The same-chain no-op whose transaction a later attempt replays. */
  noop?: boolean;
  expect: { status: string; legErrors?: (string | null)[] };
}

const CASES: Case[] = [
  ...(['relay', 'across', 'mayan'] as const).flatMap((provider) =>
    [1, 2, 3, 4].map((i): Case => ({
      name: `${provider} #${i}`,
      sources: [[1, 'USDC', usdc(4 + i, S.normal)]],
      providers: [provider],
      expect: { status: 'settled' },
    })),
  ),
  ...[1, 2, 3].map((i): Case => ({
    name: `two chains, any provider #${i}`,
    sources: [
      [1, 'USDC', usdc(10 + i, S.normal)],
      [42161, 'USDC', usdc(20 + i, S.normal)],
    ],
    expect: { status: 'settled' },
  })),
  ...(['relay', 'across', 'mayan'] as const).map((provider): Case => ({
    name: `${provider} refund`,
    sources: [[1, 'USDC', usdc(6, S.refund)]],
    providers: [provider],
    expect: { status: 'failed', legErrors: ['refunded'] },
  })),
  {
    name: 'relay failure, then refund',
    sources: [[1, 'USDC', usdc(6, S.failureThenRefund)]],
    providers: ['relay'],
    expect: { status: 'failed', legErrors: ['refunded'] },
  },
  {
    name: 'relay failure, final',
    sources: [[1, 'USDC', usdc(6, S.finalFailure)]],
    providers: ['relay'],
    expect: { status: 'failed', legErrors: ['provider_failed'] },
  },
  {
    name: 'relay delayed, then filled',
    sources: [[1, 'USDC', usdc(6, S.delayed)]],
    providers: ['relay'],
    expect: { status: 'settled' },
  },
  {
    name: 'mayan cancel',
    sources: [[1, 'USDC', usdc(6, S.cancel)]],
    providers: ['mayan'],
    expect: { status: 'failed', legErrors: ['refunded'] },
  },
  {
    name: 'relay reverted fill',
    sources: [[1, 'USDC', usdc(7, S.revertedFill)]],
    providers: ['relay'],
    expect: { status: 'failed', legErrors: ['settlement_timeout'] },
  },
  {
    name: 'across short fill',
    sources: [[1, 'USDC', usdc(7, S.shortFill)]],
    providers: ['across'],
    expect: { status: 'failed', legErrors: ['below_minimum'] },
  },
  {
    name: 'mayan zero fill',
    sources: [[1, 'USDC', usdc(7, S.zeroFill)]],
    providers: ['mayan'],
    expect: { status: 'failed', legErrors: ['settlement_timeout'] },
  },
  {
    name: 'relay wrong-token fill',
    sources: [[1, 'USDC', usdc(7, S.wrongToken)]],
    providers: ['relay'],
    expect: { status: 'failed', legErrors: ['settlement_timeout'] },
  },
  {
    name: 'across destination action failed',
    sources: [[1, 'USDC', usdc(7, S.destinationActionFailed)]],
    providers: ['across'],
    expect: { status: 'failed', legErrors: ['destination_action_failed'] },
  },
  {
    name: 'across: two deposits in one batch',
    sources: [
      [1, 'USDC', usdc(8, S.normal)],
      [1, 'USDT', usdc(3, S.normal)],
    ],
    providers: ['across'],
    batch: true,
    expect: { status: 'settled' },
  },
  {
    name: 'across: two deposits in one batch, the second refunded',
    sources: [
      [1, 'USDC', usdc(8, S.normal)],
      [1, 'USDT', usdc(3, S.refund)],
    ],
    providers: ['across'],
    batch: true,
    expect: { status: 'failed', legErrors: [null, 'refunded'] },
  },
  {
    name: 'mayan: two orders in one batch, the first refunded',
    sources: [
      [1, 'USDC', usdc(8, S.refund)],
      [1, 'USDT', usdc(3, S.normal)],
    ],
    providers: ['mayan'],
    batch: true,
    expect: { status: 'failed', legErrors: ['refunded', null] },
  },
  ...[1, 2].map((i): Case => ({
    name: `no-op #${i}`,
    sources: [[8453, 'USDC', usdc(2 + i, S.normal)]],
    noop: true,
    expect: { status: 'settled' },
  })),
];

describe('settlement soak on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;
  let driver: SandboxDriver;
  let executor: Hex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'soak-'));
    sandbox = await startSandboxProcess({ SANDBOX_FAILURE_HOLD_MS: '2000' });
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      chains,
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      providers: createProviderAdapters(
        loadProvidersConfig({
          ...sandbox.manifest.env,
          ACROSS_MIN_POLL_INTERVAL_MS: '1000',
          RELAY_FAILURE_GRACE_MS: '5000',
        }),
      ),
      env: {
        SETTLEMENT_TICK_MS: '100',
        SETTLEMENT_TRACKING_LIMIT_SECONDS: '60',
        SETTLEMENT_DELAY_MARGIN_SECONDS: '0',
      },
    });
    driver = new SandboxDriver({ port: t.port, partner: PARTNERS.v2, sandbox });
    const deployer = privateKeyToAccount(sandbox.manifest.wallets.users[5].privateKey as Hex);
    const hash = await driver.wallet(deployer, 1).deployContract({
      abi: BatchExecutorArtifact.abi,
      bytecode: BatchExecutorArtifact.bytecode,
    });
    executor = (await driver.reader(1).waitForTransactionReceipt({ hash })).contractAddress!;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every attempt in flight at once reaches the terminal state that matches the chain', async () => {
    const started = Date.now();
    const wallets = await driver.fundWallets(CASES.length + 3, [1, 42161, 8453], {
      USDC: 100_000_000n,
      USDT: 100_000_000n,
    });
    const caps = { '0x1': { atomic: { status: 'supported' } } };

    const run = async (c: Case, wallet: Account) => {
      const { attempt, recipient } = await driver.prepare(wallet, c.sources, {
        providers: c.providers,
        ...(c.batch ? { caps } : {}),
      });
      const before = await driver.balance(8453, 'USDC', recipient);
      const chainResults: ChainResults = c.batch
        ? await driver.executeBatch(wallet, attempt, executor)
        : await driver.execute(wallet, attempt);
      await driver.submit(attempt.attemptId, {
        chainResults,
        walletAuthorization: { signature: await driver.sign(wallet, attempt) },
      });
      return { c, wallet, attempt, recipient, before, chainResults };
    };
    // One attempt left open with a bundle id only: it must not hold up any other (security review H1).
    const openWallet = wallets[CASES.length];
    const open = await driver.prepare(openWallet, [[1, 'USDC', usdc(5, S.normal)]], { providers: ['relay'] });
    await driver.submit(open.attempt.attemptId, {
      chainResults: [{ chainId: 1, bundleId: 'bundle-never-reported' }],
    });

    const flows = await Promise.all(CASES.map((c, i) => run(c, wallets[i])));

    // Evidence replayed from the no-op attempts (same wallet, recipient and calldata) on new attempts.
    const replays = await Promise.all(
      flows
        .filter((f) => f.c.noop)
        .map(async (f) => {
          await until(f.attempt.attemptId, (s) => s.status === 'settled', 60_000);
          const again = await driver.prepare(f.wallet, f.c.sources, { recipient: f.recipient });
          await driver.submit(again.attempt.attemptId, {
            chainResults: f.chainResults,
            walletAuthorization: { signature: await driver.sign(f.wallet, again.attempt) },
          });
          return again.attempt;
        }),
    );

    const failures: string[] = [];
    // Every attempt that should settle settles while the abandoned one is still open: it holds nobody up.
    await Promise.all(
      flows
        .filter((f) => f.c.expect.status === 'settled')
        .map((f) => until(f.attempt.attemptId, (s) => s.status === 'settled', 60_000)),
    );
    const openMeanwhile = await driver.status(open.attempt.attemptId);
    if (openMeanwhile.status !== 'wallet_submitted')
      failures.push(`the open attempt is ${openMeanwhile.status}`);
    const finals = await Promise.all(flows.map((f) => until(f.attempt.attemptId, terminal, 150_000)));
    for (const [i, f] of flows.entries()) {
      const s = finals[i];
      const legs = s.perChainStatus.flatMap((p: { legs: unknown[] }) => p.legs) as {
        status: string;
        errorCode: string | null;
        settledAmount: string | null;
        settledAmountBasis: string | null;
        refund?: { to: string | null; amountBasis: string | null };
        delayed?: { since: string; expectedBy: string; explorerUrl: string | null };
      }[];
      const received = (await driver.balance(8453, 'USDC', f.recipient)) - f.before;
      const settledSum = legs
        .filter((l) => l.status === 'settled' || l.errorCode === 'below_minimum')
        .reduce((sum, l) => sum + BigInt(l.settledAmount ?? '0'), 0n);
      const outputs = (s.settledOutputs as { amount: string; amountBasis: string }[]).reduce(
        (sum, o) => sum + BigInt(Math.round(Number(o.amount) * 1e6)),
        0n,
      );
      const check = (ok: boolean, what: string) => ok || failures.push(`${f.c.name}: ${what}`);
      check(s.status === f.c.expect.status, `status ${s.status}, expected ${f.c.expect.status}`);
      if (f.c.expect.legErrors) {
        check(
          JSON.stringify(legs.map((l) => l.errorCode)) === JSON.stringify(f.c.expect.legErrors),
          `leg errors ${JSON.stringify(legs.map((l) => l.errorCode))}`,
        );
      }
      check(received === settledSum, `recipient received ${received}, legs say ${settledSum}`);
      check(
        outputs ===
          legs.filter((l) => l.status === 'settled').reduce((a, l) => a + BigInt(l.settledAmount!), 0n),
        'settledOutputs differ from the settled legs',
      );
      check(
        legs.every((l) => l.settledAmountBasis === null || l.settledAmountBasis === 'exact'),
        'a settled amount is not exact',
      );
      // A leg that never delivered ran past its provider's own ETA: it says so, with the provider's explorer page.
      for (const l of legs.filter((l) => l.errorCode === 'settlement_timeout'))
        check(
          /^https:\/\/(relay\.link|app\.across\.to|explorer\.mayan\.finance)\//.test(
            l.delayed?.explorerUrl ?? '',
          ),
          `a timed-out leg shows no delay: ${JSON.stringify(l.delayed)}`,
        );
      for (const l of legs.filter(
        (l) => l.errorCode === 'refunded' || l.errorCode === 'destination_action_failed',
      ))
        check(
          l.refund?.to?.toLowerCase() === f.wallet.address.toLowerCase(),
          `refund went to ${l.refund?.to}`,
        );
    }
    for (const replay of replays) {
      const s = await driver.status(replay.attemptId);
      if (s.status === 'settled' || s.settledOutputs.length > 0)
        failures.push(`replay ${replay.attemptId} settled`);
    }
    // At the tracking limit the abandoned attempt ends too, and says why.
    const openEnd = await until(open.attempt.attemptId, terminal, 30_000);
    if (openEnd.status !== 'failed' || openEnd.perChainStatus[0].legs[0].errorCode !== 'settlement_timeout')
      failures.push(`the open attempt ended ${openEnd.status}`);
    expect(failures).toEqual([]);
    expect(flows.length + replays.length + 1).toBeGreaterThanOrEqual(30);
    expect(Date.now() - started).toBeLessThan(180_000);
  }, 240_000);

  const terminal = (s: { status: string }) => ['settled', 'failed', 'expired'].includes(s.status);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON
  async function until(attemptId: string, done: (s: any) => boolean, timeoutMs: number): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await driver.status(attemptId);
      if (done(s) || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  ManualClock,
  signedRequest,
  startSandboxProcess,
  type SandboxProcess,
  sandboxWalletClients,
  sendInOrder,
} from '@svc/testing';
import { erc20Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getCallsStatus, sendCalls } from 'viem/actions';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Evidence, on-chain verification and settlement tracking through the HTTP API on the provider sandbox: every
 * attempt ends in the terminal state that matches what happened on chain, with exact amounts.
 */
describe('settlement on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;
  const clock = new ManualClock(Date.now());
  let tracking = true;
  /** Moves the service's clock ahead of the wall clock while time still passes (deadlines without a frozen tracker). */
  let skewMs = 0;
  const realNow = { now: () => (tracking ? Date.now() + skewMs : clock.now()) };

  const start = async () =>
    startTestApp({
      clock: { now: () => realNow.now() },
      chains,
      store: SqliteEventStore.open({
        file: join(dir, 'events.sqlite'),
        clock: () => new Date(realNow.now()),
        pollIntervalMs: 20,
      }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100' },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'settle-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await start();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    tracking = true;
    skewMs = 0;
    await sandbox.setFaults([]);
  });

  const user = (i: number) => sandbox.manifest.wallets.users[i];
  const token = (chainId: number, symbol: string) => sandbox.token(chainId, symbol);
  const api = (method: string, path: string, body?: unknown, key?: string) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method,
      path,
      body,
      ...(method === 'POST' ? { idempotencyKey: key ?? `k-${Math.random()}` } : {}),
      timestamp: realNow.now(),
    });
  const status = async (attemptId: string) =>
    (await api('GET', `/api/external/attempts/${attemptId}/status`)).json;
  const submitted = (attemptId: string, body: unknown, key?: string) =>
    api('POST', `/api/external/attempts/${attemptId}/submitted`, body, key);

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

  /** quote → prepare for user i, sources as [chainId, symbol, raw amount]. */
  async function prepared(
    i: number,
    sources: [number, string, string][],
    options: { recipient?: string; caps?: unknown; providers?: string[] } = {},
  ) {
    const recipient = options.recipient ?? privateKeyToAccount(generatePrivateKey()).address;
    const quote = (
      await api('POST', '/api/external/intents/quote', {
        walletAddress: user(i).address,
        recipient,
        sources: sources.map(([chainId, symbol, amount]) => ({
          chainId,
          address: token(chainId, symbol),
          amount,
          symbol,
          decimals: symbol === 'USDC' || symbol === 'USDT' ? 6 : 18,
        })),
        target: {
          chainId: 8453,
          address: token(8453, 'USDC'),
          targetToken: { address: token(8453, 'USDC'), symbol: 'USDC', decimals: 6 },
        },
        ...(options.providers ? { allowedProviders: options.providers } : {}),
      })
    ).json;
    expect(quote.quoteStatus).toBe('ready');
    const attempt = (
      await api('POST', `/api/external/intents/${quote.intentSessionId}/prepare`, {
        walletContext: { walletCapabilities: options.caps ?? {} },
      })
    ).json;
    expect(attempt.status).toBe('prepared');
    return { quote, attempt, recipient };
  }

  /** Executes every transaction of every action as returned; returns the hashes per chain. */
  async function execute(
    i: number,
    attempt: { chainActions: { chainId: number; transactions: { to: Hex; data: Hex; value: string }[] }[] },
    skip = 0,
  ) {
    const results: { chainId: number; txHashes: Hex[] }[] = [];
    for (const action of attempt.chainActions) {
      const txHashes = await sendInOrder(wallet(i, action.chainId), action.transactions.slice(skip));
      results.push({ chainId: action.chainId, txHashes });
    }
    return results;
  }

  const sign = (
    i: number,
    attempt: { walletAuthorization: Parameters<ReturnType<typeof privateKeyToAccount>['signTypedData']>[0] },
  ) => wallet(i, 1).account.signTypedData(attempt.walletAuthorization);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON; assertions check its shape
  async function until(attemptId: string, done: (s: any) => boolean, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await status(attemptId);
      if (done(s) || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('sendTransaction: evidence with the signature → settled, settled amounts equal the on-chain balance change', async () => {
    const { attempt, recipient } = await prepared(0, [
      [1, 'USDC', '40000000'],
      [42161, 'ETH', '10000000000000000'],
    ]);
    const before = await baseUsdc(recipient);
    const chainResults = await execute(0, attempt);
    const res = await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(0, attempt) },
      submittedAt: Date.now(),
    });
    expect([res.status, res.json.status]).toEqual([200, 'wallet_submitted']);
    const final = await until(attempt.attemptId, (s) => s.status === 'settled');
    expect(final.status).toBe('settled');
    expect(final.currentStatus).toBe('settled');
    const received = (await baseUsdc(recipient)) - before;
    const legs = final.perChainStatus.flatMap(
      (c: { legs: { settledAmount: string; settledAmountBasis: string }[] }) => c.legs,
    );
    expect(legs.every((l: { settledAmountBasis: string }) => l.settledAmountBasis === 'exact')).toBe(true);
    expect(
      legs.reduce((sum: bigint, l: { settledAmount: string }) => sum + BigInt(l.settledAmount), 0n),
    ).toBe(received);
    expect(final.settledOutputs.length).toBe(legs.length);
  }, 60_000);

  it('wallet_sendCalls: a bundle id first, hashes later under a new key → settled', async () => {
    const caps = { '0x1': { atomic: { status: 'supported' } } };
    const { attempt } = await prepared(1, [[1, 'USDC', '20000000']], { caps });
    const action = attempt.chainActions[0];
    expect(action.submitMethod).toBe('wallet_sendCalls');
    const { client } = wallet(1, 1);
    const { id } = await sendCalls(client, {
      calls: action.calls.map((c: { to: Hex; data: Hex; value: string }) => ({
        to: c.to,
        data: c.data,
        value: BigInt(c.value),
      })),
      experimental_fallback: true,
    });
    // viem's fallback id encodes the calls' hashes (often past 255 characters); wallets' ids are opaque: report a short one.
    const bundleId = `bundle-${attempt.attemptId}`;
    const first = await submitted(attempt.attemptId, {
      chainResults: [{ chainId: 1, bundleId }],
      walletAuthorization: { signature: await sign(1, attempt) },
    });
    expect(first.json.status).toBe('wallet_submitted');
    // Later the wallet reports the receipts: call submitted again with a new key and the hashes.
    const calls = await getCallsStatus(client, { id });
    const hashes = (calls.receipts ?? []).map((r) => r.transactionHash);
    expect(hashes.length).toBe(action.calls.length);
    await submitted(attempt.attemptId, { chainResults: [{ chainId: 1, bundleId, txHashes: hashes }] });
    const final = await until(attempt.attemptId, (s) => s.status === 'settled');
    expect(final.status).toBe('settled');
    expect(final.perChainStatus[0].bundleId).toBe(bundleId);
  }, 60_000);

  it('evidence without a signature stays short of settled until a later submitted brings one', async () => {
    const { attempt } = await prepared(2, [[1, 'USDC', '10000000']]);
    const chainResults = await execute(2, attempt);
    await submitted(attempt.attemptId, { chainResults });
    const waiting = await until(attempt.attemptId, (s) =>
      (s as unknown as { perChainStatus: { legs: { status: string }[] }[] }).perChainStatus.every((c) =>
        c.legs.every((l) => l.status === 'settled'),
      ),
    );
    expect(waiting.status).toBe('provider_pending');
    await new Promise((r) => setTimeout(r, 400));
    expect((await status(attempt.attemptId)).status).toBe('provider_pending');
    await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(2, attempt) },
    });
    expect((await until(attempt.attemptId, (s) => s.status === 'settled')).status).toBe('settled');
  }, 60_000);

  it('a reverted source transaction fails the attempt', async () => {
    const { attempt } = await prepared(3, [[1, 'USDC', '10000000']], { providers: ['across'] });
    expect(attempt.chainActions[0].transactions.length).toBeGreaterThan(1);
    // Skipping the approval makes the deposit revert.
    const { client, reader } = wallet(3, 1);
    const deposit = attempt.chainActions[0].transactions.at(-1);
    const hash = await client.sendTransaction({
      to: deposit.to,
      data: deposit.data,
      value: BigInt(deposit.value),
      gas: 500_000n,
    });
    expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('reverted');
    await submitted(attempt.attemptId, {
      chainResults: [{ chainId: 1, txHashes: [hash] }],
      walletAuthorization: { signature: await sign(3, attempt) },
    });
    const final = await until(attempt.attemptId, (s) => s.status === 'failed');
    expect(final.status).toBe('failed');
    expect(final.perChainStatus[0].legs[0].errorCode).toBe('source_reverted');
  }, 60_000);

  it('a provider refund fails the attempt with the leg refunded', async () => {
    await sandbox.setFaults([{ provider: 'relay', refund: true }]);
    const { attempt } = await prepared(4, [[1, 'USDC', '10000000']], { providers: ['relay'] });
    const chainResults = await execute(4, attempt);
    await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(4, attempt) },
    });
    const final = await until(attempt.attemptId, (s) => s.status === 'failed');
    expect(final.status).toBe('failed');
    expect(final.perChainStatus[0].legs[0].errorCode).toBe('refunded');
    expect(final.settledOutputs).toEqual([]);
  }, 60_000);

  it('a hash that matches nothing prepared never settles', async () => {
    const { attempt } = await prepared(5, [[1, 'USDC', '10000000']]);
    const { client, reader } = wallet(5, 1);
    const stray = await client.sendTransaction({ to: user(0).address as Hex, value: 1n });
    await reader.waitForTransactionReceipt({ hash: stray });
    await submitted(attempt.attemptId, {
      chainResults: [{ chainId: 1, txHashes: [stray] }],
      walletAuthorization: { signature: await sign(5, attempt) },
    });
    await new Promise((r) => setTimeout(r, 1500));
    const s = await status(attempt.attemptId);
    expect(s.status).toBe('wallet_submitted');
    expect(s.perChainStatus[0].legs[0].status).not.toBe('settled');
  }, 60_000);

  it('evidence replayed from a settled attempt never settles another (H3: claims and the mined-after-prepare rule)', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    // A no-op leg: USDC already on Base moves to the recipient by a plain transfer, the same calldata every time.
    const first = await prepared(0, [[8453, 'USDC', '3000000']], { recipient });
    const chainResults = await execute(0, first.attempt);
    await submitted(first.attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(0, first.attempt) },
    });
    expect((await until(first.attempt.attemptId, (s) => s.status === 'settled')).status).toBe('settled');
    const second = await prepared(0, [[8453, 'USDC', '3000000']], { recipient });
    expect(second.attempt.chainActions[0].transactions.map((t: { data: string }) => t.data)).toEqual(
      first.attempt.chainActions[0].transactions.map((t: { data: string }) => t.data),
    );
    await submitted(second.attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(0, second.attempt) },
    });
    await new Promise((r) => setTimeout(r, 1500));
    const replayed = await status(second.attempt.attemptId);
    expect(replayed.status).toBe('wallet_submitted');
    expect(replayed.perChainStatus[0].status).toBe('submitted');
    expect(replayed.settledOutputs).toEqual([]);
  }, 60_000);

  it('a deposit executed but never reported is found before expiry: tracked, not expired, and late evidence settles it (M11)', async () => {
    const { attempt, recipient } = await prepared(4, [[1, 'USDC', '12000000']], { providers: ['across'] });
    const before = await baseUsdc(recipient);
    const chainResults = await execute(4, attempt);
    // Past the evidence deadline with nothing reported: the tracker looks for the wallet's deposit before expiring.
    skewMs = Date.parse(attempt.evidenceDeadlineAt) - Date.now() + 1000;
    const found = await until(
      attempt.attemptId,
      (s) => s.perChainStatus[0].legs[0].status === 'settled',
      20_000,
    );
    expect(found.status).toBe('prepared');
    expect(found.perChainStatus[0].legs[0]).toMatchObject({
      status: 'settled',
      sourceChainTxHash: chainResults[0].txHashes.at(-1),
      settledAmountBasis: 'exact',
    });
    // Evidence after the deadline is still accepted, since the deposit was seen; with the signature it settles.
    const late = await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(4, attempt) },
    });
    expect(late.status).toBe(200);
    const final = await until(attempt.attemptId, (s) => s.status === 'settled');
    expect(final.status).toBe('settled');
    expect(BigInt(final.perChainStatus[0].legs[0].settledAmount)).toBe((await baseUsdc(recipient)) - before);
  }, 60_000);

  it('a provider that hangs stalls only its own attempts (H5: a bounded pool, a budget per attempt)', async () => {
    await sandbox.setFaults([{ provider: 'mayan', timeout: true, endpoints: 'status' }]);
    const slow = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const { attempt } = await prepared(i, [[1, 'USDC', `${3 + i}000000`]], { providers: ['mayan'] });
        const chainResults = await execute(i, attempt);
        await submitted(attempt.attemptId, {
          chainResults,
          walletAuthorization: { signature: await sign(i, attempt) },
        });
        return attempt;
      }),
    );
    // Let the tracker start polling the hanging provider before the quick attempt arrives.
    await new Promise((r) => setTimeout(r, 500));
    const { attempt } = await prepared(3, [[1, 'USDC', '9000000']], { providers: ['relay'] });
    const chainResults = await execute(3, attempt);
    const submittedAt = Date.now();
    await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(3, attempt) },
    });
    const quick = await until(attempt.attemptId, (s) => s.status === 'settled', 6000);
    expect(quick.status).toBe('settled');
    expect(Date.now() - submittedAt).toBeLessThan(6000);
    for (const a of slow) expect((await status(a.attemptId)).status).not.toBe('settled');
    await sandbox.setFaults([]);
    for (const a of slow)
      expect((await until(a.attemptId, (s) => s.status === 'settled', 30_000)).status).toBe('settled');
  }, 90_000);

  it('refuses: unknown attempt 404, unknown chain 400, a foreign signature 400, late initial evidence 409', async () => {
    expect((await submitted('at_nope', { chainResults: [{ chainId: 1, bundleId: 'b' }] })).json.code).toBe(
      'attempt_not_found',
    );
    expect((await api('GET', '/api/external/attempts/at_nope/status')).status).toBe(404);
    const { attempt } = await prepared(0, [[1, 'USDC', '1000000']]);
    expect(
      (await submitted(attempt.attemptId, { chainResults: [{ chainId: 10, bundleId: 'b' }] })).json.code,
    ).toBe('unknown_chain');
    const foreign = await wallet(1, 1).account.signTypedData(attempt.walletAuthorization);
    expect(
      (
        await submitted(attempt.attemptId, {
          chainResults: [{ chainId: 1, bundleId: 'b' }],
          walletAuthorization: { signature: foreign },
        })
      ).json.code,
    ).toBe('wallet_authorization_invalid');
    expect((await status(attempt.attemptId)).status).toBe('prepared'); // refused reports record nothing
    // At most 2 × the chain's calls + 8 distinct hashes per chain: a flood of hashes is refused whole.
    const flood = Array.from(
      { length: 2 * attempt.chainActions[0].transactionCount + 9 },
      (_, i) => `0x${(i + 1).toString(16).padStart(64, 'f')}`,
    );
    const flooded = await submitted(attempt.attemptId, { chainResults: [{ chainId: 1, txHashes: flood }] });
    expect([flooded.status, flooded.json.code]).toEqual([400, 'evidence_limit_exceeded']);
    expect((await status(attempt.attemptId)).status).toBe('prepared');
    tracking = false;
    clock.set(Date.parse(attempt.evidenceDeadlineAt) + 1);
    const late = await submitted(attempt.attemptId, { chainResults: [{ chainId: 1, bundleId: 'b' }] });
    expect([late.status, late.json.code]).toEqual([409, 'evidence_deadline_passed']);
  }, 60_000);

  it('no evidence by evidenceDeadlineAt → expired', async () => {
    const { attempt } = await prepared(1, [[1, 'USDC', '1000000']], { providers: ['across'] });
    tracking = false;
    clock.set(Date.parse(attempt.evidenceDeadlineAt) + 1);
    expect((await until(attempt.attemptId, (s) => s.status === 'expired', 5000)).status).toBe('expired');
  }, 30_000);

  it('a contract wallet signature is refused with contract_wallet_unsupported', async () => {
    // A process caches a wallet's account kind for minutes, and user 2 signed as an EOA earlier: start afresh.
    await t.close();
    t = await start();
    const { attempt } = await prepared(2, [[1, 'USDC', '1000000']]);
    const { reader } = wallet(2, 1);
    await reader.request({
      method: 'anvil_setCode' as never,
      params: [user(2).address, '0x6080604052'] as never,
    });
    try {
      const res = await submitted(attempt.attemptId, {
        chainResults: [{ chainId: 1, bundleId: 'b' }],
        walletAuthorization: { signature: await sign(2, attempt) },
      });
      expect([res.status, res.json.code]).toEqual([400, 'contract_wallet_unsupported']);
    } finally {
      await reader.request({ method: 'anvil_setCode' as never, params: [user(2).address, '0x'] as never });
    }
  }, 30_000);

  it('a tracker restart mid-flight reaches the same outcome', async () => {
    const { attempt } = await prepared(3, [[1, 'USDC', '15000000']], { providers: ['relay'] });
    const chainResults = await execute(3, attempt);
    await t.close();
    t = await start();
    await submitted(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await sign(3, attempt) },
    });
    await t.close();
    t = await start();
    expect((await until(attempt.attemptId, (s) => s.status === 'settled')).status).toBe('settled');
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  signedRequest,
  startSandboxProcess,
  type SandboxProcess,
  sandboxWalletClients,
  sendInOrder,
} from '@svc/testing';
import { erc20Abi, type Hex, parseAbi, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const HOUR_S = 3600;
/** The sandbox's late-refund scenario (914) and Across's timeline it plays (apps/provider-sandbox across-refund-timing). */
const LATE_REFUND_SUFFIX = 914n;
const FILL_DEADLINE_BUFFER_S = 2 * HOUR_S;
const REFUND_AFTER_EXPIRY_S = 3.5 * HOUR_S;
/** How long the service follows an Across leg past its fillDeadline (libs/providers ACROSS_REFUND_WINDOW_MS). */
const REFUND_WINDOW_S = 7 * HOUR_S;
/** The sandbox SpokePool's deposit event (across-protocol/contracts V3SpokePoolInterface.sol, legacy). */
const V3_FUNDS_DEPOSITED = parseAbi([
  'event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)',
]);

/**
 * A late Across refund through the service's API (issue 24 item 2, S14, provider review N2): an unfilled deposit
 * expires at its fillDeadline (the quote + 2 h) and is refunded a bundle and a challenge period later (3.5 h). The
 * chains' clocks move by anvil time travel and the service's clock by the same amount, so the hours take seconds.
 * Before, the tracker failed the leg `settlement_timeout` at the 2 h tracking limit and never reported the refund.
 */
describe('a late Across refund, hours after the tracking limit (anvil time travel)', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;
  /** How far the chains (and with them the service's clock) were moved ahead of the wall clock. */
  let skewMs = 0;
  const now = () => Date.now() + skewMs;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'late-refund-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      clock: { now },
      chains,
      store: SqliteEventStore.open({
        file: join(dir, 'events.sqlite'),
        clock: () => new Date(now()),
        pollIntervalMs: 20,
      }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      // The default tracking limit (2 h): what the refund must outlive.
      env: { SETTLEMENT_TICK_MS: '100' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const user = (i = 0) => sandbox.manifest.wallets.users[i];
  const api = (method: string, path: string, body?: unknown) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method,
      path,
      body,
      ...(method === 'POST' ? { idempotencyKey: `k-${Math.random()}` } : {}),
      timestamp: now(),
    });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON; assertions check its shape
  const status = async (attemptId: string): Promise<any> =>
    (await api('GET', `/api/external/attempts/${attemptId}/status`)).json;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  async function until(attemptId: string, done: (s: any) => boolean, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await status(attemptId);
      if (done(s) || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  function wallet(chainId: number, i = 0) {
    return sandboxWalletClients(sandbox.manifest, chainId, user(i).privateKey);
  }
  /** Every chain's clock `seconds` ahead (anvil evm_increaseTime, then a block mined), the service's alike. */
  async function travel(seconds: number) {
    for (const { rpcUrl } of sandbox.manifest.chains) {
      for (const [method, params] of [
        ['evm_increaseTime', [seconds]],
        ['evm_mine', []],
      ] as const) {
        const response = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        expect(((await response.json()) as { error?: unknown }).error).toBeUndefined();
      }
    }
    skewMs += seconds * 1000;
  }

  // First: the service's clock still agrees with the sandbox's quotes (the other test moves it hours ahead).
  it("a native-input Across deposit is refunded in WETH, and the refund is read in WETH (N7's second half)", async () => {
    const weth = sandbox.token(8453, 'WETH');
    // 0.01 ETH on Base with the refund scenario's digits (901), into USDC on Arbitrum.
    const amount = 10n ** 16n + 901n;
    const quote = (
      await api('POST', '/api/external/intents/quote', {
        walletAddress: user(1).address,
        recipient: privateKeyToAccount(generatePrivateKey()).address,
        sources: [
          {
            chainId: 8453,
            address: '0x0000000000000000000000000000000000000000',
            amount: amount.toString(),
            symbol: 'ETH',
            decimals: 18,
          },
        ],
        target: {
          chainId: 42161,
          address: sandbox.token(42161, 'USDC'),
          targetToken: { address: sandbox.token(42161, 'USDC'), symbol: 'USDC', decimals: 6 },
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
    const { client, reader, account } = wallet(8453, 1);
    const wethOf = () =>
      reader.readContract({
        address: weth as Hex,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      });
    const wethBefore = await wethOf();
    const txHashes = await sendInOrder(
      { client, reader },
      attempt.chainActions[0].transactions as { to: Hex; data: Hex; value: string }[],
    );
    await api('POST', `/api/external/attempts/${attempt.attemptId}/submitted`, {
      chainResults: [{ chainId: 8453, txHashes }],
      walletAuthorization: { signature: await account.signTypedData(attempt.walletAuthorization) },
    });
    const final = await until(attempt.attemptId, (s) => s.status === 'failed', 30_000);
    expect(final.perChainStatus[0].legs[0]).toMatchObject({
      status: 'failed',
      errorCode: 'refunded',
      // Before: the refund was looked for in the source token, native ETH, and its token and amount were unknown.
      refund: {
        chainId: 8453,
        token: weth,
        amount: amount.toString(),
        amountBasis: 'exact',
        to: account.address,
      },
    });
    expect(await wethOf()).toBe(wethBefore + amount);
  }, 60_000);

  it('expired at its fill deadline, the leg owed past the tracking limit, then refunded hours later: failed/refunded with the refund', async () => {
    const usdc1 = sandbox.token(1, 'USDC');
    const amount = 40_000_000n + LATE_REFUND_SUFFIX;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = (
      await api('POST', '/api/external/intents/quote', {
        walletAddress: user().address,
        recipient,
        sources: [{ chainId: 1, address: usdc1, amount: amount.toString(), symbol: 'USDC', decimals: 6 }],
        target: {
          chainId: 8453,
          address: sandbox.token(8453, 'USDC'),
          targetToken: { address: sandbox.token(8453, 'USDC'), symbol: 'USDC', decimals: 6 },
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

    const { client, reader, account } = wallet(1);
    const balance = () =>
      reader.readContract({
        address: usdc1 as Hex,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      });
    const before = await balance();
    const txHashes = await sendInOrder(
      { client, reader },
      attempt.chainActions[0].transactions as { to: Hex; data: Hex; value: string }[],
    );
    const submitted = await api('POST', `/api/external/attempts/${attempt.attemptId}/submitted`, {
      chainResults: [{ chainId: 1, txHashes }],
      walletAuthorization: { signature: await account.signTypedData(attempt.walletAuthorization) },
    });
    expect(submitted.status).toBe(200);
    const leg = (s: { perChainStatus: { legs: Record<string, unknown>[] }[] }) => s.perChainStatus[0].legs[0];
    const underWay = await until(
      attempt.attemptId,
      (s) => s.status === 'provider_pending' && leg(s).status === 'pending',
    );
    expect([underWay.status, leg(underWay).status]).toEqual(['provider_pending', 'pending']);
    expect(await balance()).toBe(before - amount);

    // 2 h later, past the deposit's fillDeadline and the service's tracking limit: Across says `expired`. The leg is
    // owed, not timed out: it stays pending with followedUntil, and the attempt waits for it.
    await travel(FILL_DEADLINE_BUFFER_S + 60);
    const owed = await until(attempt.attemptId, (s) => leg(s).followedUntil !== undefined);
    expect(owed.status).toBe('provider_pending');
    expect(leg(owed)).toMatchObject({ status: 'pending', errorCode: null });
    // Followed until the deposit's own fillDeadline, read from its event, plus Across's 7 h refund window.
    const receipt = await reader.getTransactionReceipt({ hash: txHashes.at(-1)! });
    const [deposited] = parseEventLogs({ abi: V3_FUNDS_DEPOSITED, logs: receipt.logs });
    expect(leg(owed).followedUntil).toBe(
      new Date((deposited.args.fillDeadline + REFUND_WINDOW_S) * 1000).toISOString(),
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect((await status(attempt.attemptId)).status).toBe('provider_pending');

    // A bundle and its challenge period later Across refunds on the origin chain: the leg ends refunded with where the
    // money went, read from the refund transaction, and the attempt fails with it.
    await travel(REFUND_AFTER_EXPIRY_S);
    const final = await until(attempt.attemptId, (s) => s.status === 'failed', 30_000);
    expect(final.status).toBe('failed');
    expect(leg(final)).toMatchObject({
      status: 'failed',
      errorCode: 'refunded',
      followedUntil: leg(owed).followedUntil,
      refund: {
        chainId: 1,
        token: usdc1,
        amount: amount.toString(),
        amountBasis: 'exact',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        to: account.address,
      },
    });
    expect(final.settledOutputs).toEqual([]);
    expect(await balance()).toBe(before);
  }, 90_000);
});

import { ChainRegistry, executionCommitment } from '@svc/chains';
import {
  createProviderAdapters,
  loadProvidersConfig,
  type ProviderAdapter,
  type QuoteSlice,
} from '@svc/providers';
import { ManualClock, signedRequest, startSandboxProcess, type SandboxProcess } from '@svc/testing';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  recoverTypedDataAddress,
} from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { sendCalls } from 'viem/actions';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * quote → prepare → the user's wallet signs the authorization and executes every chain action exactly as returned
 * → the recipient receives at least the quoted minimum. On the provider sandbox's chains, through the real API.
 */
describe('prepare on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let t: TestApp;
  let chains: ChainRegistry;
  const clock = new ManualClock(Date.now());
  /** When set, Across's quotes hold this long after the service's clock instead of their own deadline. */
  let acrossHoldsMs: number | null = null;
  let acrossAsked = 0;

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    const providers = createProviderAdapters(loadProvidersConfig(sandbox.manifest.env));
    t = await startTestApp({
      clock,
      chains,
      providers: { ...providers, across: withAcrossDeadline(providers.across) },
    });
  }, 60_000);

  function withAcrossDeadline(across: ProviderAdapter): ProviderAdapter {
    return new Proxy(across, {
      get(target, prop) {
        if (prop === 'quote')
          return async (slice: QuoteSlice, options: { signal: AbortSignal }) => {
            acrossAsked += 1;
            const result = await target.quote(slice, options);
            return result.ok && acrossHoldsMs !== null
              ? { ok: true, quote: { ...result.quote, validUntil: clock.now() + acrossHoldsMs } }
              : result;
          };
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
  });
  beforeEach(async () => {
    clock.set(Date.now());
    acrossHoldsMs = null;
    await sandbox.setFaults([]);
  });

  const user = (index: number) => sandbox.manifest.wallets.users[index];
  const token = (chainId: number, symbol: string) => sandbox.token(chainId, symbol);
  const post = (path: string, body: unknown, key = `k-${Math.random()}`, partner = PARTNERS.v2) =>
    signedRequest({
      port: t.port,
      partner,
      method: 'POST',
      path,
      body,
      idempotencyKey: key,
      timestamp: clock.now(),
    });
  const prepare = (id: string, body: unknown = {}, key?: string, partner = PARTNERS.v2) =>
    post(`/api/external/intents/${id}/prepare`, body, key, partner);

  function wallet(userIndex: number, chainId: number) {
    const entry = sandbox.manifest.chains.find((c) => c.chainId === chainId)!;
    const chain = defineChain({
      id: chainId,
      name: entry.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
    const account = privateKeyToAccount(user(userIndex).privateKey as Hex);
    return {
      account,
      client: createWalletClient({ account, chain, transport: http(entry.rpcUrl) }),
      reader: createPublicClient({ chain, transport: http(entry.rpcUrl), pollingInterval: 50 }),
    };
  }

  async function quoteFor(
    userIndex: number,
    recipient: string,
    sources: [number, string, string][],
    extra: Record<string, unknown> = {},
  ) {
    const res = await post('/api/external/intents/quote', {
      walletAddress: user(userIndex).address,
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
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.json;
  }

  const baseUsdcOf = (address: string) =>
    wallet(0, 8453).reader.readContract({
      address: token(8453, 'USDC') as Hex,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as Hex],
    });

  async function waitForBalance(address: string, atLeast: bigint): Promise<bigint> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const balance = await baseUsdcOf(address);
      if (balance >= atLeast || Date.now() > deadline) return balance;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('sendTransaction path: every action executed as returned delivers at least the quoted minimum', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await quoteFor(0, recipient, [
      [1, 'USDC', '250000000'],
      [42161, 'ETH', '100000000000000000'],
      [1, 'USDT', '30000000'],
    ]);
    expect(quote.quoteStatus).toBe('ready');
    const res = await prepare(quote.intentSessionId, {
      walletContext: { connectorName: 'Test', walletCapabilities: {} },
    });
    expect([res.status, res.json.status]).toEqual([200, 'prepared']);
    const body = res.json;
    expect(Date.parse(body.expiresAt) - clock.now()).toBe(30_000);
    expect(Date.parse(body.evidenceDeadlineAt) - clock.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(
      body.chainActions.map((a: { chainId: number; submitMethod: string }) => [a.chainId, a.submitMethod]),
    ).toEqual([
      [1, 'sendTransaction'],
      [42161, 'sendTransaction'],
    ]);
    for (const action of body.chainActions) {
      expect(action.calls).toBeNull();
      expect(action.transactions.map((tx: { callId: string }) => tx.callId)).toEqual(
        action.transactions.map((_: unknown, i: number) => `chain:${action.chainId}:call:${i}`),
      );
    }

    // The authorization: domain with name and version only, over exactly these calls, recoverable to the wallet.
    const auth = body.walletAuthorization;
    expect(Object.keys(auth.domain).sort()).toEqual(['name', 'version']);
    expect(auth.types.EIP712Domain).toBeUndefined();
    expect(auth.message).toEqual(
      expect.objectContaining({
        wallet: user(0).address,
        recipient,
        intentSessionId: quote.intentSessionId,
        attemptId: body.attemptId,
        executionCommitment: executionCommitment(body.chainActions),
      }),
    );
    const { account, client } = wallet(0, 1);
    const viemSignature = await account.signTypedData(auth);
    const rawSignature: Hex = await client.request({
      method: 'eth_signTypedData_v4' as never,
      params: [
        account.address,
        JSON.stringify({
          ...auth,
          types: {
            ...auth.types,
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'version', type: 'string' },
            ],
          },
        }),
      ] as never,
    });
    for (const signature of [viemSignature, rawSignature]) {
      expect(await recoverTypedDataAddress({ ...auth, signature })).toBe(user(0).address);
    }

    for (const action of body.chainActions) {
      const { client: w, reader } = wallet(0, action.chainId);
      for (const tx of action.transactions) {
        const hash = await w.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
        expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
      }
    }
    const minimum = BigInt(quote.selectedPlan.legs[0].summary.minimumOutputRaw);
    expect(await waitForBalance(recipient, minimum)).toBeGreaterThanOrEqual(minimum);
  }, 60_000);

  it('wallet_sendCalls path: atomic actions executed as one client-side batch deliver too', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await quoteFor(1, recipient, [
      [1, 'USDC', '100000000'],
      [42161, 'WETH', '20000000000000000'],
    ]);
    const caps = {
      '0x1': { atomic: { status: 'supported' } },
      '0xa4b1': { atomicBatch: { supported: true } },
    };
    const body = (await prepare(quote.intentSessionId, { walletContext: { walletCapabilities: caps } })).json;
    expect(
      body.chainActions.map((a: { submitMethod: string; atomicRequired: boolean; transactions: unknown }) => [
        a.submitMethod,
        a.atomicRequired,
        a.transactions,
      ]),
    ).toEqual([
      ['wallet_sendCalls', true, null],
      ['wallet_sendCalls', true, null],
    ]);
    for (const action of body.chainActions) {
      const { client: w, reader } = wallet(1, action.chainId);
      // anvil has no EIP-5792: viem's fallback sends the batch's calls one by one, in order.
      const { id } = await sendCalls(w, {
        calls: action.calls.map((c: { to: Hex; data: Hex; value: string }) => ({
          to: c.to,
          data: c.data,
          value: BigInt(c.value),
        })),
        experimental_fallback: true,
      });
      expect(id).toBeDefined();
      const latest = await reader.getBlockNumber();
      expect(latest).toBeGreaterThan(0n);
    }
    const minimum = BigInt(quote.selectedPlan.legs[0].summary.minimumOutputRaw);
    expect(await waitForBalance(recipient, minimum)).toBeGreaterThanOrEqual(minimum);
  }, 60_000);

  it('capabilities that do not report atomic support for a chain keep it on sendTransaction', async () => {
    const quote = await quoteFor(2, user(2).address, [
      [1, 'USDC', '1000000'],
      [42161, 'USDC', '1000000'],
    ]);
    const caps = {
      '0x1': { atomic: { status: 'unsupported' } },
      '0x2105': { atomic: { status: 'supported' } },
    };
    const body = (await prepare(quote.intentSessionId, { walletContext: { walletCapabilities: caps } })).json;
    expect(body.chainActions.map((a: { submitMethod: string }) => a.submitMethod)).toEqual([
      'sendTransaction',
      'sendTransaction',
    ]);
  });

  it('sandbox scenario 911: an Across swapTx.gas of "0" is left unset, never handed to the wallet as a zero limit (D4)', async () => {
    const quote = await quoteFor(3, user(3).address, [[1, 'USDC', '7000911']], {
      allowedProviders: ['across'],
    });
    const body = (await prepare(quote.intentSessionId)).json;
    const calls = body.chainActions.flatMap(
      (a: { transactions: { gas?: string | null }[] | null; calls: { gas?: string | null }[] | null }) =>
        a.transactions ?? a.calls ?? [],
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.gas ?? null).not.toBe('0');
  });

  it('replays the same key with the stored attempt and byte-identical chain actions; no second attempt', async () => {
    const quote = await quoteFor(2, user(2).address, [[1, 'USDC', '2000000']]);
    const first = await prepare(quote.intentSessionId, {}, 'prepare-replay');
    const again = await prepare(quote.intentSessionId, {}, 'prepare-replay');
    expect(again.text).toBe(first.text);
    expect(await t.store.readStream(`intent-${quote.intentSessionId}`)).toHaveLength(2);
  });

  it('two prepares at once with different keys: exactly one attempt', async () => {
    const quote = await quoteFor(3, user(3).address, [[1, 'USDC', '3000000']]);
    const results = await Promise.all([
      prepare(quote.intentSessionId, {}, 'race-a'),
      prepare(quote.intentSessionId, {}, 'race-b'),
    ]);
    const codes = results.map((r) => (r.status === 200 ? 'ok' : r.json.code)).sort();
    expect(codes).toEqual(['intent_session_already_prepared', 'ok']);
  });

  describe('preconditions, in order', () => {
    it('404 intent_session_not_found for an unknown session, before any body error', async () => {
      expect((await prepare('is_nope')).json.code).toBe('intent_session_not_found');
      expect((await prepare('is_nope', { callbackUrl: 'https://evil.example/x' })).json.code).toBe(
        'intent_session_not_found',
      );
    });

    it("404 for another partner's session", async () => {
      const quote = await quoteFor(4, user(4).address, [[1, 'USDC', '1000000']]);
      const res = await prepare(quote.intentSessionId, {}, undefined, PARTNERS.other);
      expect([res.status, res.json.code]).toEqual([404, 'intent_session_not_found']);
    });

    it('409 intent_session_expired after expiresAt', async () => {
      const quote = await quoteFor(4, user(4).address, [[1, 'USDC', '1000000']]);
      clock.set(Date.parse(quote.expiresAt));
      const res = await prepare(quote.intentSessionId);
      expect([res.status, res.json.code]).toEqual([409, 'intent_session_expired']);
    });

    it('409 intent_session_not_ready for partial_only and unavailable quotes', async () => {
      await sandbox.setFaults(
        ['relay', 'across', 'mayan'].map((provider) => ({
          provider,
          routeUnavailableTokens: [token(1, 'USDT')],
        })),
      );
      const partial = await quoteFor(4, user(4).address, [
        [1, 'USDC', '1000000'],
        [1, 'USDT', '1000000'],
      ]);
      expect(partial.quoteStatus).toBe('partial_only');
      expect((await prepare(partial.intentSessionId)).json.code).toBe('intent_session_not_ready');
      const none = await quoteFor(4, user(4).address, [[1, 'USDT', '1000000']]);
      expect(none.quoteStatus).toBe('unavailable');
      expect((await prepare(none.intentSessionId)).json.code).toBe('intent_session_not_ready');
    });

    it('409 intent_session_already_prepared under another key', async () => {
      const quote = await quoteFor(4, user(4).address, [[1, 'USDC', '1000000']]);
      expect((await prepare(quote.intentSessionId, {}, 'first-key')).status).toBe(200);
      const res = await prepare(quote.intentSessionId, {}, 'second-key');
      expect([res.status, res.json.code]).toEqual([409, 'intent_session_already_prepared']);
    });

    it('400 invalid_callback_url and invalid_wallet_context on a ready session, and they store nothing', async () => {
      const quote = await quoteFor(4, user(4).address, [[1, 'USDC', '1000000']]);
      expect(
        (await prepare(quote.intentSessionId, { callbackUrl: 'https://evil.example/x' }, 'bad-body')).json
          .code,
      ).toBe('invalid_callback_url');
      expect((await prepare(quote.intentSessionId, { walletContext: 'metamask' })).json.code).toBe(
        'invalid_wallet_context',
      );
      expect(
        (await prepare(quote.intentSessionId, { walletContext: { walletCapabilities: [] } })).json.code,
      ).toBe('invalid_wallet_context');
      expect((await prepare(quote.intentSessionId, [])).json.code).toBe('invalid_request_body');
      expect((await prepare(quote.intentSessionId, { wallet: {} })).json.code).toBe('unknown_field');
      expect(await t.store.readStream(`intent-${quote.intentSessionId}`)).toHaveLength(1);
      expect(
        (await prepare(quote.intentSessionId, { callbackUrl: PARTNERS.v2.callbackUrl }, 'bad-body-fixed'))
          .status,
      ).toBe(200);
    });
  });

  describe('stale provider quotes', () => {
    it('re-quotes a quote older than the freshness limit and uses it when its minimum holds', async () => {
      const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '5000000']], {
        allowedProviders: ['relay'],
      });
      const [quoted] = await t.store.readStream(`intent-${quote.intentSessionId}`);
      const oldRequestId = (quoted.data as { execution: { slices: { providerRequestId: string }[] }[] })
        .execution[0].slices[0].providerRequestId;
      clock.advance(31_000);
      const res = await prepare(quote.intentSessionId);
      expect(res.status).toBe(200);
      const [attempt] = await t.store.readStream(`attempt-${res.json.attemptId}`);
      const slice = (
        attempt.data as { legs: { slices: { providerRequestId: string; minimumOutputRaw: string }[] }[] }
      ).legs[0].slices[0];
      expect(slice.providerRequestId).not.toBe(oldRequestId);
      expect(BigInt(slice.minimumOutputRaw)).toBeGreaterThanOrEqual(
        BigInt(quote.selectedPlan.legs[0].summary.minimumOutputRaw),
      );
    });

    it('409 quote_changed when the provider will not renew the stale quote', async () => {
      const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '5000000']], {
        allowedProviders: ['relay'],
      });
      await sandbox.setFaults([{ provider: 'relay', routeUnavailableTokens: [token(1, 'USDC')] }]);
      clock.advance(31_000);
      const res = await prepare(quote.intentSessionId);
      expect([res.status, res.json.code]).toEqual([409, 'quote_changed']);
    });
  });

  it('a service clock behind real time still quotes and prepares: the bus deadline is counted on that clock', async () => {
    // Issue 24 side finding: the gateway stamped receivedAt with the service's clock and the bus handler aged it on
    // the wall clock, so a clock 35-60 s behind dropped every request as past its deadline (quotes answered 500 internal_error).
    clock.set(Date.now() - 45_000);
    const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '6000000']], {
      allowedProviders: ['across'],
    });
    expect(quote.quoteStatus).toBe('ready');
    const res = await prepare(quote.intentSessionId);
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.expiresAt)).toBe(clock.now() + 30_000);
  });

  describe('provider deadlines and the evidence deadline (issue 24)', () => {
    it('evidence is due no earlier than the end of the signable window plus execution time', async () => {
      // Across without a destination swap: its quote holds an hour.
      const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '6000000']], {
        allowedProviders: ['across'],
      });
      const res = await prepare(quote.intentSessionId);
      expect(res.status).toBe(200);
      const { expiresAt, evidenceDeadlineAt } = res.json;
      expect(Date.parse(expiresAt) - clock.now()).toBe(30_000);
      expect(Date.parse(evidenceDeadlineAt)).toBeGreaterThanOrEqual(Date.parse(expiresAt) + 30_000);
    });

    it('a provider quote holding less than that (Across with a destination swap: 30 s) is not routed at quote time', async () => {
      // The sandbox's standard outputs are all tokens Across bridges (no destination swap, an hour): Across's
      // destination-swap 30 s (across-protocol/frontend api/_quote-timestamp.ts) is played by the adapter wrapper.
      acrossHoldsMs = 30_000;
      const quote = await quoteFor(5, user(5).address, [[1, 'USDT', '6000000']], {
        allowedProviders: ['across'],
      });
      expect(quote.quoteStatus).toBe('unavailable');
      acrossHoldsMs = null;
      // USDT to USDC is an origin swap for Across (api/_dexes/cross-swap-service.ts): it holds an hour, and is routed.
      const routed = await quoteFor(5, user(5).address, [[1, 'USDT', '6000000']], {
        allowedProviders: ['across'],
      });
      expect(routed.quoteStatus).toBe('ready');
    });

    it('a stored quote that would end inside that is quoted again at prepare, and the fresh one used', async () => {
      acrossHoldsMs = 70_000;
      const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '6000000']], {
        allowedProviders: ['across'],
      });
      expect(quote.quoteStatus).toBe('ready');
      // 20 s later (younger than the 30 s freshness limit), the stored quote holds 50 s: less than 30 s + 30 s.
      clock.advance(20_000);
      acrossHoldsMs = 3_600_000;
      const asked = acrossAsked;
      const res = await prepare(quote.intentSessionId);
      expect(res.status).toBe(200);
      expect(acrossAsked).toBe(asked + 1);
      // The fresh quote's hour, not the stored 50 s, bounds nothing: the 15 min evidence window does.
      expect(Date.parse(res.json.evidenceDeadlineAt)).toBe(clock.now() + 15 * 60_000);
    });

    it('409 quote_changed when the fresh quote holds as little', async () => {
      acrossHoldsMs = 70_000;
      const quote = await quoteFor(5, user(5).address, [[1, 'USDC', '6000000']], {
        allowedProviders: ['across'],
      });
      clock.advance(20_000);
      acrossHoldsMs = 30_000;
      const res = await prepare(quote.intentSessionId);
      expect([res.status, res.json.code]).toEqual([409, 'quote_changed']);
      expect(res.json.message).toBe(
        "across's quote holds only 30 s, less than the signable window plus execution time (60 s) a wallet needs; request a new quote",
      );
      expect(await t.store.readStream(`intent-${quote.intentSessionId}`)).toHaveLength(1);
    });
  });
});

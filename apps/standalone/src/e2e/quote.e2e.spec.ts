import { type IntentQuotedData } from '@svc/domain';
import { createProviderAdapters, loadProvidersConfig, type RoutableProvider } from '@svc/providers';
import { ManualClock, signedRequest, startSandboxProcess, type SandboxProcess } from '@svc/testing';
import { PARTNERS, startTestApp, TEST_FEE_RECIPIENT, type TestApp } from './test-app';

/**
 * POST /intents/quote end to end on the provider sandbox: real allocation, the three real adapters, the sandbox's
 * relay / across / mayan dialects with their faults, and the intent session in the event store.
 */
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const QUOTE = '/api/external/intents/quote';

describe('quote on the provider sandbox', () => {
  let sandbox: SandboxProcess;
  let t: TestApp;
  const clock = new ManualClock(Date.now());
  const usdc = (chainId: number) => sandbox.token(chainId, 'USDC');

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    t = await startTestApp({
      clock,
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });
  beforeEach(async () => {
    clock.set(Date.now());
    await sandbox.setFaults([]);
  });

  const source = (chainId: number, symbol: string, amount: string, extra: Record<string, unknown> = {}) => ({
    chainId,
    address: sandbox.token(chainId, symbol),
    amount,
    symbol,
    decimals: symbol === 'USDC' || symbol === 'USDT' ? 6 : 18,
    ...extra,
  });
  const baseUsdcTarget = () => ({
    chainId: 8453,
    address: usdc(8453),
    targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
  });
  const quote = (body: Record<string, unknown>, key = `q-${Math.random()}`) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'POST',
      path: QUOTE,
      body,
      idempotencyKey: key,
      timestamp: clock.now(),
    });
  const single = (sources: unknown[], extra: Record<string, unknown> = {}) => ({
    walletAddress: WALLET,
    sources,
    target: baseUsdcTarget(),
    ...extra,
  });

  it('ready: a plan for several sources whose numbers are the providers own quotes', async () => {
    const sources = [
      source(1, 'USDC', '250000000'),
      source(42161, 'ETH', '100000000000000000'),
      source(1, 'USDT', '40000000'),
    ];
    const res = await quote(single(sources));
    expect([res.status, res.json.quoteStatus, res.json.coverageMode]).toEqual([200, 'ready', 'full']);
    const plan = res.json.selectedPlan;
    expect(plan.isFullPlan).toBe(true);
    expect(plan.legs).toHaveLength(1);
    expect(
      res.json.allocationPlan.legs[0].sourceAllocations.map(
        (a: { allocatedRawAmount: string }) => a.allocatedRawAmount,
      ),
    ).toEqual(['250000000', '100000000000000000', '40000000']);

    // Ask every adapter for the same slices directly: each route's figures must be exactly their sum.
    const adapters = createProviderAdapters(loadProvidersConfig(sandbox.manifest.env));
    for (const evaluation of res.json.routeEvaluations[0].evaluations) {
      const provider = evaluation.provider as RoutableProvider;
      let expected = 0n;
      let minimum = 0n;
      for (const s of sources) {
        const r = await adapters[provider].quote(
          {
            sliceId: 'x',
            wallet: WALLET,
            recipient: WALLET,
            refundTo: WALLET,
            source: {
              chainId: s.chainId,
              token: s.address as `0x${string}`,
              amount: BigInt(s.amount),
              decimals: s.decimals,
            },
            target: { chainId: 8453, token: usdc(8453) as `0x${string}`, decimals: 6 },
            slippageBps: 50,
            appFeeBps: 0,
            appFeeRecipient: null,
          },
          { signal: AbortSignal.timeout(5000) },
        );
        if (!r.ok) throw new Error(JSON.stringify(r.failure));
        // A quote that holds less than the signable window plus execution time (Across with a destination swap:
        // 30 s) is route_unavailable, not part of the route (issue 24).
        if (r.quote.validUntil !== null && r.quote.validUntil < Date.now() + 60_000) continue;
        expected += r.quote.expectedOutputRaw;
        minimum += r.quote.minimumOutputRaw;
      }
      expect([provider, evaluation.expectedOutputRaw, evaluation.minimumOutputRaw]).toEqual([
        provider,
        expected.toString(),
        minimum.toString(),
      ]);
    }
    const selected = res.json.routeEvaluations[0].evaluations.find(
      (e: { isSelected: boolean }) => e.isSelected,
    );
    expect(selected.isBestReturn).toBe(true);
    expect(plan.legs[0].summary.expectedOutputRaw).toBe(selected.expectedOutputRaw);
    expect(plan.summary.totalFeeUsd).toBeGreaterThan(0);
    expect(plan.summary.totalLossUsd).toBeGreaterThanOrEqual(0);
  });

  it('a no-op source needs no provider and counts its own amount; a same-chain swap fails same_chain_unsupported', async () => {
    const res = await quote(
      single(
        [
          source(8453, 'USDC', '5000000'),
          source(1, 'USDC', '1000000'),
          source(8453, 'WETH', '1000000000000000'),
        ],
        { allowPartial: true },
      ),
    );
    const allocations = res.json.allocationPlan.legs[0].sourceAllocations;
    expect(allocations.map((a: { isNoop: boolean }) => a.isNoop)).toEqual([true, false, false]);
    expect(
      res.json.failedSources.map((f: { reasonCode: string; inputTokenIndex: number }) => [
        f.inputTokenIndex,
        f.reasonCode,
      ]),
    ).toEqual([[2, 'same_chain_unsupported']]);
    expect([
      res.json.quoteStatus,
      res.json.coverageMode,
      res.json.selectedPlan.legs[0].noopSliceCount,
    ]).toEqual(['ready', 'partial', 1]);
    expect(BigInt(res.json.selectedPlan.legs[0].summary.expectedOutputRaw)).toBeGreaterThan(5_000_000n);
  });

  it('partial_only without allowPartial, ready with coverage partial with it', async () => {
    const blocked = sandbox.token(1, 'USDT');
    await sandbox.setFaults(
      ['relay', 'across', 'mayan'].map((provider) => ({ provider, routeUnavailableTokens: [blocked] })),
    );
    const sources = [source(1, 'USDC', '10000000'), source(1, 'USDT', '10000000')];
    const without = await quote(single(sources));
    expect([
      without.json.quoteStatus,
      without.json.coverageMode,
      without.json.selectedPlan.isFullPlan,
    ]).toEqual(['partial_only', 'partial', false]);
    expect(
      without.json.failedSources.every(
        (f: { reasonCode: string; inputTokenIndex: number }) =>
          f.reasonCode === 'route_unavailable' && f.inputTokenIndex === 1,
      ),
    ).toBe(true);
    const withPartial = await quote(single(sources, { allowPartial: true }));
    expect([withPartial.json.quoteStatus, withPartial.json.coverageMode]).toEqual(['ready', 'partial']);
  });

  it('unavailable when every provider fails: no plan, provider_unavailable per provider', async () => {
    await sandbox.setFaults(['relay', 'across', 'mayan'].map((provider) => ({ provider, httpStatus: 503 })));
    const res = await quote(single([source(1, 'USDC', '10000000')]));
    expect([res.json.quoteStatus, res.json.coverageMode, res.json.selectedPlan]).toEqual([
      'unavailable',
      'none',
      null,
    ]);
    expect(
      res.json.failedSources.map((f: { provider: string; reasonCode: string }) => [f.provider, f.reasonCode]),
    ).toEqual([
      ['relay', 'provider_unavailable'],
      ['across', 'provider_unavailable'],
      ['mayan', 'provider_unavailable'],
    ]);
  });

  it('sandbox scenario 912: each provider answers 429 with Retry-After, and the partner sees provider_unavailable', async () => {
    const res = await quote(single([source(1, 'USDC', '10000912')]));
    expect(res.json.quoteStatus).toBe('unavailable');
    expect(
      res.json.failedSources.map((f: { provider: string; reasonCode: string }) => [f.provider, f.reasonCode]),
    ).toEqual([
      ['relay', 'provider_unavailable'],
      ['across', 'provider_unavailable'],
      ['mayan', 'provider_unavailable'],
    ]);
  });

  it.each([[[]], [['symbiosis', 'fly']]])(
    'allowedProviders %j: unavailable with no_allowed_provider',
    async (allowedProviders) => {
      const res = await quote(single([source(1, 'USDC', '10000000')], { allowedProviders }));
      expect(res.json.quoteStatus).toBe('unavailable');
      expect(res.json.failedSources).toEqual([
        expect.objectContaining({ provider: null, reasonCode: 'no_allowed_provider', inputTokenIndex: 0 }),
      ]);
      expect(res.json.routeEvaluations[0].evaluations).toEqual([]);
    },
  );

  it('routes only through the allowed providers', async () => {
    const res = await quote(single([source(1, 'USDC', '10000000')], { allowedProviders: ['mayan'] }));
    expect(res.json.routeEvaluations[0].evaluations.map((e: { provider: string }) => e.provider)).toEqual([
      'mayan',
    ]);
    expect(res.json.selectedPlan.providerSet).toEqual(['mayan']);
  });

  it('a hanging provider yields provider_timeout and the response still comes within maxWaitMs', async () => {
    await sandbox.setFaults([{ provider: 'mayan', timeout: true }]);
    const started = Date.now();
    const res = await quote(single([source(1, 'USDC', '10000000')], { maxWaitMs: 1500 }));
    const elapsed = Date.now() - started;
    expect(res.json.quoteStatus).toBe('ready');
    expect(elapsed).toBeLessThan(1500 + 1000);
    const mayan = res.json.routeEvaluations[0].evaluations.find(
      (e: { provider: string }) => e.provider === 'mayan',
    );
    expect(mayan.failedSources.map((f: { reasonCode: string }) => f.reasonCode)).toEqual([
      'provider_timeout',
    ]);
  });

  it('replays the stored session without routing again, and reports expired once expiresAt passed', async () => {
    const key = `replay-${Date.now()}`;
    const body = single([source(1, 'USDC', '10000000')]);
    const first = await quote(body, key);
    await sandbox.setFaults(['relay', 'across', 'mayan'].map((provider) => ({ provider, httpStatus: 503 })));
    const replay = await quote(body, key);
    expect(replay.json).toEqual(first.json);
    const expiresAt = Date.parse(first.json.expiresAt);
    expect(expiresAt - clock.now()).toBeLessThanOrEqual(60_000);
    clock.set(expiresAt + 1);
    const expired = await quote(body, key);
    expect([expired.json.quoteStatus, expired.json.intentSessionId]).toEqual([
      'expired',
      first.json.intentSessionId,
    ]);
    // Each target's route evaluations say so too (issue 25 item 7: they still said `ready`).
    const groupStatuses = (res: { json: { routeEvaluations: { quoteStatus: string }[] } }) =>
      res.json.routeEvaluations.map((g) => g.quoteStatus);
    expect(groupStatuses(first)).toEqual(['ready']);
    expect(groupStatuses(expired)).toEqual(['expired']);
    // Nothing else of the stored response changes: with the statuses put back, it is the first response.
    expect({
      ...expired.json,
      quoteStatus: 'ready',
      routeEvaluations: expired.json.routeEvaluations.map((g: object) => ({ ...g, quoteStatus: 'ready' })),
    }).toEqual(first.json);
  });

  it('multi-target: quotas by portfolio USD, one leg per target, every source fully allocated', async () => {
    const targets = [
      { id: 'base', ...baseUsdcTarget(), allocationPercent: 60 },
      {
        id: 'arb',
        chainId: 42161,
        address: usdc(42161),
        allocationPercent: 40,
        targetToken: { address: usdc(42161), symbol: 'USDC', decimals: 6 },
      },
    ];
    const sources = [
      source(1, 'USDC', '600000000', { usdValue: '600' }),
      source(1, 'WETH', '133333333333333333', { usdValue: '400' }),
    ];
    const res = await quote({ walletAddress: WALLET, sources, targets });
    expect([
      res.json.quoteStatus,
      res.json.selectedPlan.legs.map((l: { outputTargetId: string }) => l.outputTargetId),
    ]).toEqual(['ready', ['base', 'arb']]);
    const pieces = res.json.allocationPlan.legs.flatMap(
      (l: { sourceAllocations: { inputTokenIndex: number; allocatedRawAmount: string }[] }) =>
        l.sourceAllocations,
    );
    for (const [index, s] of sources.entries()) {
      const total = pieces
        .filter((p: { inputTokenIndex: number }) => p.inputTokenIndex === index)
        .reduce((sum: bigint, p: { allocatedRawAmount: string }) => sum + BigInt(p.allocatedRawAmount), 0n);
      expect(total).toBe(BigInt(s.amount));
    }
  });

  it('passes the service rate plus the partner markup to providers and records the markup owed', async () => {
    const res = await quote(
      single([source(1, 'USDC', '100000000')], { feeBps: 25, allowedProviders: ['relay'] }),
    );
    expect(res.json.quoteStatus).toBe('ready');
    const [event] = await t.store.readStream(`intent-${res.json.intentSessionId}`);
    const data = event.data as unknown as IntentQuotedData;
    expect(data.fees).toEqual({
      serviceFeeBps: 0,
      markupBps: 25,
      recipient: TEST_FEE_RECIPIENT,
      markupOwed: [
        expect.objectContaining({
          chainId: 1,
          rawAmount: '250000',
          token: sandbox.token(1, 'USDC'),
          // Relay pays app fees into an off-chain balance at Relay, claimed through its API (D15).
          provider: 'relay',
          collectedAs: {
            paidAs: 'offchain_balance',
            bps: 25,
            chainId: null,
            token: null,
            claim: 'POST /app-fees/{recipient}/claim',
          },
        }),
      ],
    });
    expect(data.execution[0].slices[0].appFee).toMatchObject({ paidAs: 'offchain_balance' });
    expect(data.execution[0].slices[0].calls.length).toBeGreaterThan(0);
    const noFee = await quote(single([source(1, 'USDC', '100000000')], { allowedProviders: ['relay'] }));
    expect(BigInt(noFee.json.selectedPlan.legs[0].summary.expectedOutputRaw)).toBeGreaterThan(
      BigInt(res.json.selectedPlan.legs[0].summary.expectedOutputRaw),
    );
  });
});

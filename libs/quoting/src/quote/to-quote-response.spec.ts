import { type QuoteRequest } from '@svc/contract';
import {
  providerQuote,
  QUOTED_AT,
  quoteFailure,
  refuseAll,
  refusing,
  type Respond,
  routeQuote,
} from './provider-answers.test-helper';
import { quoteRequest, source, target, TOKEN } from './quote-request.test-helper';
import { toQuoteResponse } from './to-quote-response';

const EXPIRES_AT = QUOTED_AT + 45_000;

function responseTo(
  request: QuoteRequest,
  respond?: Respond,
  priceUsd: (targetId: string) => string | null = () => null,
) {
  const { allocation, decision } = routeQuote(request, { respond });
  return toQuoteResponse({
    intentSessionId: 'is_0123',
    expiresAt: EXPIRES_AT,
    allocation,
    decision,
    priceUsd,
  });
}

/** across gives these outputs (target base units) per slice; relay and mayan a little less. */
const OUTPUTS: Record<string, [expected: bigint, minimum: bigint]> = {
  't0:1': [39_980_000n, 39_780_100n],
  't0:2': [9_990_000n, 9_940_050n],
};
const acrossBest: Respond = (p, s) => {
  const [expected, minimum] = OUTPUTS[s.sliceId];
  const less = p === 'across' ? 0n : 1_000n;
  return providerQuote(p, s, { expectedOutputRaw: expected - less, minimumOutputRaw: minimum - less });
};

/** A no-op (USDC already on Base), then two cross-chain slices, the last without a symbol. */
const request = quoteRequest(
  [
    source(TOKEN.usdcBase, 2_500000n, { usdValue: '2.5' }),
    source(TOKEN.usdcArb, 40_000000n, { usdValue: '40' }),
    source(TOKEN.usdcEth, 10_000000n, { symbol: false }),
  ],
  [target('t0', TOKEN.usdcBase, { priceUSD: '0.9998' })],
);

describe('toQuoteResponse: the decision on the v1 wire', () => {
  it('carries the session id, the status and coverage decided, and expiresAt as ISO 8601', () => {
    const response = responseTo(request, acrossBest);
    expect([
      response.intentSessionId,
      response.quoteStatus,
      response.coverageMode,
      response.expiresAt,
    ]).toEqual(['is_0123', 'ready', 'full', new Date(EXPIRES_AT).toISOString()]);
  });

  it('lists every slice in the allocation plan, amounts raw and formatted, a missing symbol as ""', () => {
    const [leg] = responseTo(request, acrossBest).allocationPlan.legs;
    expect(leg.outputTargetId).toBe('t0');
    expect(
      leg.sourceAllocations.map((a) => [
        a.inputTokenIndex,
        a.chainId,
        a.symbol,
        a.allocatedRawAmount,
        a.allocatedAmount,
        a.isNoop,
        a.isSameSymbolRoute,
        a.allocatedUsdValue,
      ]),
    ).toEqual([
      [0, 8453, 'USDC', '2500000', '2.5', true, false, '2.5'],
      [1, 42161, 'USDC', '40000000', '40', false, true, '40'],
      [2, 1, '', '10000000', '10', false, false, null],
    ]);
  });

  it("describes each target with its token, and the price the partner gave for that target's id", () => {
    const multi = quoteRequest(
      [
        source(TOKEN.usdcEth, 100_000000n, { usdValue: '100' }),
        source(TOKEN.daiEth, 100n * 10n ** 18n, { usdValue: '100' }),
      ],
      [
        target('to-base', TOKEN.usdcBase, { allocationPercent: 40 }),
        target('to-arb', TOKEN.usdcArb, { allocationPercent: 60, symbol: false }),
      ],
    );
    const prices: Record<string, string> = { 'to-base': '1.0002' };
    const response = responseTo(multi, undefined, (id) => prices[id] ?? null);
    expect(response.allocationPlan.legs.map((l) => l.target)).toEqual([
      {
        id: 'to-base',
        chainId: 8453,
        address: TOKEN.usdcBase.address,
        allocationPercent: 40,
        targetToken: {
          address: TOKEN.usdcBase.address,
          chainId: 8453,
          symbol: 'USDC',
          decimals: 6,
          priceUSD: '1.0002',
        },
      },
      {
        id: 'to-arb',
        chainId: 42161,
        address: TOKEN.usdcArb.address,
        allocationPercent: 60,
        targetToken: {
          address: TOKEN.usdcArb.address,
          chainId: 42161,
          symbol: '',
          decimals: 6,
          priceUSD: null,
        },
      },
    ]);
    expect(response.selectedPlan?.legs.map((l) => l.target)).toEqual(
      response.allocationPlan.legs.map((l) => l.target),
    );
  });

  describe('selectedPlan', () => {
    it('is null when the quote is unavailable', () => {
      const crossChainOnly = quoteRequest(
        [source(TOKEN.usdcArb, 40_000000n)],
        [target('t0', TOKEN.usdcBase)],
      );
      const response = responseTo(crossChainOnly, refuseAll);
      expect([response.quoteStatus, response.selectedPlan]).toEqual(['unavailable', null]);
    });

    it("shows the chosen route's output net of fees, the no-op's own amount included, in target units", () => {
      const plan = responseTo(request, acrossBest).selectedPlan!;
      expect([plan.isFullPlan, plan.providerSet, plan.coveredSliceCount, plan.totalSliceCount]).toEqual([
        true,
        ['across'],
        3,
        3,
      ]);
      const [leg] = plan.legs;
      expect([
        leg.outputTargetId,
        leg.routeId,
        leg.provider,
        leg.requiredQuoteCount,
        leg.noopSliceCount,
      ]).toEqual(['t0', 't0:across', 'across', 2, 1]);
      // 2.5 USDC no-op + 39.98 + 9.99 quoted; minimum 2.5 + 39.7801 + 9.94005
      expect(leg.summary).toMatchObject({
        expectedOutputRaw: '52470000',
        minimumOutputRaw: '52220150',
        expectedOutputAmount: '52.47',
        minimumOutputAmount: '52.22015',
        output: { chainId: 8453, tokenAddress: TOKEN.usdcBase.address, symbol: 'USDC', decimals: 6 },
      });
    });

    it("carries the decision's summary and the leg's own USD figures and ETA", () => {
      const { allocation, decision } = routeQuote(request, { respond: acrossBest });
      const response = toQuoteResponse({
        intentSessionId: 'is_0123',
        expiresAt: EXPIRES_AT,
        allocation,
        decision,
        priceUsd: () => null,
      });
      const route = decision.selected[0].route!;
      expect(response.selectedPlan!.summary).toEqual(decision.summary);
      expect(response.selectedPlan!.legs[0].summary).toMatchObject({
        totalOutputUsd: route.outputUsd,
        totalFeeUsd: route.feeUsd,
        totalLossUsd: route.lossUsd,
        timeEstimate: route.etaSeconds,
      });
      expect(route.etaSeconds).toBe(4); // across's ETA in the fixture, the slowest of its slices
    });

    it('partial_only still shows the best partial plan, not full, with the uncovered slice as failed', () => {
      const partial = responseTo(request, (p, s) =>
        s.sliceId === 't0:2' ? quoteFailure(p, 'amount_too_low') : acrossBest(p, s),
      );
      expect([partial.quoteStatus, partial.coverageMode]).toEqual(['partial_only', 'partial']);
      const plan = partial.selectedPlan!;
      expect([
        plan.isFullPlan,
        plan.coveredSliceCount,
        plan.totalSliceCount,
        plan.legs[0].isFullRoute,
      ]).toEqual([false, 2, 3, false]);
      expect(plan.legs[0].failedSources.map((f) => [f.inputTokenIndex, f.provider, f.reasonCode])).toEqual([
        [2, 'across', 'amount_too_low'],
      ]);
    });

    it('multi-target: one leg per selected target, each provider once in providerSet', () => {
      const multi = quoteRequest(
        [
          source(TOKEN.usdcEth, 100_000000n, { usdValue: '100' }),
          source(TOKEN.daiEth, 100n * 10n ** 18n, { usdValue: '100' }),
          source(TOKEN.usdcArb, 100_000000n, { usdValue: '100' }),
        ],
        [
          target('to-base', TOKEN.usdcBase, { allocationPercent: 50 }),
          target('to-arb', TOKEN.usdcArb, { allocationPercent: 50 }),
        ],
      );
      const sameProvider = responseTo(multi).selectedPlan!;
      expect(sameProvider.legs.map((l) => [l.outputTargetId, l.provider])).toEqual([
        ['to-base', 'across'],
        ['to-arb', 'across'],
      ]);
      expect(sameProvider.providerSet).toEqual(['across']);
      const twoProviders = responseTo(
        multi,
        refusing('across', (id) => id.startsWith('to-arb:')),
      ).selectedPlan!;
      expect(twoProviders.providerSet).toEqual(['across', 'relay']);
    });

    it('counts the slices of a target left without a route in totalSliceCount, not in coveredSliceCount', () => {
      const multi = quoteRequest(
        [
          source(TOKEN.usdcEth, 100_000000n, { usdValue: '100' }),
          source(TOKEN.daiEth, 100n * 10n ** 18n, { usdValue: '100' }),
        ],
        [
          target('to-base', TOKEN.usdcBase, { allocationPercent: 50 }),
          target('to-arb', TOKEN.usdcArb, { allocationPercent: 50 }),
        ],
        { allowPartial: true },
      );
      const response = responseTo(multi, (p, s) =>
        s.sliceId.startsWith('to-arb:') ? quoteFailure(p, 'route_unavailable') : providerQuote(p, s),
      );
      const plan = response.selectedPlan!;
      const slicesPerLeg = response.allocationPlan.legs.map((l) => l.sourceAllocations.length);
      expect([response.quoteStatus, plan.legs.map((l) => l.outputTargetId)]).toEqual(['ready', ['to-base']]);
      expect([plan.coveredSliceCount, plan.totalSliceCount]).toEqual([
        slicesPerLeg[0],
        slicesPerLeg[0] + slicesPerLeg[1],
      ]);
    });
  });

  it('is plain JSON (no bigint): it is stored in IntentQuoted and sent over the bus as is', () => {
    const response = responseTo(
      request,
      refusing('relay', (id) => id === 't0:1', 'provider_timeout', acrossBest),
    );
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
  });
});

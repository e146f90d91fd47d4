import { type ProviderName, type QuoteRequest } from '@svc/contract';
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
import { toFailedSource, toQuoteResponse } from './to-quote-response';

function responseTo(request: QuoteRequest, respond?: Respond, providers?: readonly ProviderName[]) {
  const { allocation, decision } = routeQuote(request, { respond, providers });
  return toQuoteResponse({
    intentSessionId: 'is_0123',
    expiresAt: QUOTED_AT + 60_000,
    allocation,
    decision,
    priceUsd: () => null,
  });
}

const toBase = [target('t0', TOKEN.usdcBase)];
const twoSlices = quoteRequest(
  [
    source(TOKEN.usdcArb, 40_000000n, { usdValue: '40' }),
    source(TOKEN.usdcEth, 10_000000n, { usdValue: '10' }),
  ],
  toBase,
);

describe('toQuoteResponse: routeEvaluations and failedSources', () => {
  it('one group per target, one evaluation per considered provider, only the chosen one selected', () => {
    const [group] = responseTo(twoSlices).routeEvaluations;
    expect([group.outputTargetId, group.quoteStatus, group.selectedRouteId]).toEqual([
      't0',
      'ready',
      't0:across',
    ]);
    expect(group.evaluations.map((e) => [e.routeId, e.provider, e.isSelected])).toEqual([
      ['t0:relay', 'relay', false],
      ['t0:across', 'across', true],
      ['t0:mayan', 'mayan', false],
    ]);
  });

  it("shows each route's own figures: coverage, counts, output raw and in target units, best and fastest", () => {
    const respond = refusing(
      'mayan',
      (id) => id === 't0:1',
      'provider_timeout',
      (p, s) =>
        providerQuote(p, s, p === 'relay' ? { expectedOutputRaw: s.source.amount, etaSeconds: 12 } : {}),
    );
    const [group] = responseTo(twoSlices, respond).routeEvaluations;
    const byProvider = Object.fromEntries(group.evaluations.map((e) => [e.provider, e]));
    expect(byProvider.relay).toMatchObject({
      outputTargetId: 't0',
      coveredSliceCount: 2,
      totalSliceCount: 2,
      requiredQuoteCount: 2,
      noopSliceCount: 0,
      isFullRoute: true,
      availability: 'full',
      expectedOutputRaw: '50000000',
      expectedOutputAmount: '50',
      isBestReturn: true,
      isFastest: false,
      output: { chainId: 8453, tokenAddress: TOKEN.usdcBase.address, symbol: 'USDC', decimals: 6 },
      timeEstimate: 12,
    });
    expect(byProvider.across).toMatchObject({ isBestReturn: false, isFastest: true, isSelected: false });
    expect(byProvider.mayan).toMatchObject({
      availability: 'partial',
      coveredSliceCount: 1,
      rejectedQuoteCount: 1,
      isFullRoute: false,
    });
    expect(byProvider.mayan.failedSources.map((f) => [f.inputTokenIndex, f.provider, f.reasonCode])).toEqual([
      [1, 'mayan', 'provider_timeout'],
    ]);
    expect(group.selectedRouteId).toBe('t0:relay');
  });

  it('marks the selected route, which need not be the best return: a full route beats a bigger partial one', () => {
    // across delivers more for the first slice than relay for both, but refuses the second: relay's full route wins.
    const respond = refusing(
      'across',
      (id) => id === 't0:1',
      'route_unavailable',
      (p, s) => providerQuote(p, s, p === 'relay' ? { expectedOutputRaw: 1_000n } : {}),
    );
    const [group] = responseTo(twoSlices, respond, ['relay', 'across']).routeEvaluations;
    expect(group.evaluations.map((e) => [e.provider, e.isFullRoute, e.isBestReturn, e.isSelected])).toEqual([
      ['relay', true, false, true],
      ['across', false, true, false],
    ]);
    expect(group.selectedRouteId).toBe('t0:relay');
  });

  it('a route that covers nothing shows no amounts (null), not zero', () => {
    const [group] = responseTo(
      twoSlices,
      refusing('mayan', () => true),
    ).routeEvaluations;
    const mayan = group.evaluations.find((e) => e.provider === 'mayan')!;
    expect([mayan.availability, mayan.coveredSliceCount]).toEqual(['none', 0]);
    expect([
      mayan.expectedOutputRaw,
      mayan.minimumOutputRaw,
      mayan.expectedOutputAmount,
      mayan.minimumOutputAmount,
    ]).toEqual([null, null, null, null]);
  });

  it.each([
    ['a full route', 'ready', undefined],
    ['only a partial route', 'partial_only', refusing('relay', (id) => id === 't0:1')],
    ['no route', 'unavailable', refuseAll],
  ] as [string, string, Respond | undefined][])(
    'a target with %s: its group is %s',
    (_name, status, respond) => {
      const [group] = responseTo(twoSlices, respond, ['relay']).routeEvaluations;
      expect(group.quoteStatus).toBe(status);
      expect(group.selectedRouteId).toBe(status === 'unavailable' ? null : 't0:relay');
    },
  );

  it('unavailable: every provider’s failure is listed, with the slice it concerns', () => {
    const failing: Respond = (p, s) =>
      quoteFailure(
        p,
        p === 'across' ? 'provider_timeout' : 'route_unavailable',
        `${p} says no to ${s.sliceId}`,
      );
    const response = responseTo(quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase), failing);
    expect(response.failedSources).toEqual(
      (['relay', 'across', 'mayan'] as const).map((provider) => ({
        outputTargetId: 't0',
        provider,
        symbol: 'USDC',
        address: TOKEN.usdcArb.address,
        chainId: 42161,
        reasonCode: provider === 'across' ? 'provider_timeout' : 'route_unavailable',
        reason: `${provider} says no to t0:0`,
        inputTokenIndex: 0,
        amount: '40000000',
      })),
    );
  });

  it('no provider considered: no evaluations, every slice no_allowed_provider with provider null', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcArb, 40_000000n), source(TOKEN.usdcBase, 1_000000n, { symbol: false })],
      toBase,
    );
    const response = responseTo(request, undefined, []);
    expect([response.quoteStatus, response.routeEvaluations[0].evaluations]).toEqual(['unavailable', []]);
    expect(
      response.failedSources.map((f) => [f.inputTokenIndex, f.provider, f.reasonCode, f.symbol]),
    ).toEqual([
      [0, null, 'no_allowed_provider', 'USDC'],
      [1, null, 'no_allowed_provider', ''],
    ]);
  });

  it('a same-chain swap is failed as same_chain_unsupported, provider null, on every route', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcArb, 40_000000n), source(TOKEN.wethBase, 10n ** 16n)],
      toBase,
      { allowPartial: true },
    );
    const response = responseTo(request);
    expect(
      response.failedSources.map((f) => [f.inputTokenIndex, f.provider, f.reasonCode, f.amount]),
    ).toEqual([[1, null, 'same_chain_unsupported', '10000000000000000']]);
    for (const evaluation of response.routeEvaluations[0].evaluations)
      expect(evaluation.failedSources.map((f) => f.reasonCode)).toEqual(['same_chain_unsupported']);
  });
});

describe('toFailedSource', () => {
  it('names the slice by target, source index, token and raw amount; a missing symbol is ""', () => {
    const failed = toFailedSource({
      slice: {
        sliceId: 'to-arb:3',
        targetId: 'to-arb',
        sourceIndex: 3,
        chainId: 1,
        address: TOKEN.daiEth.address,
        symbol: null,
        decimals: 18,
        rawAmount: 123_456_789_000_000_000_000_000n,
        formattedAmount: '123456.789',
        usdValue: null,
        kind: 'route',
        isSameSymbolRoute: false,
      },
      provider: 'across',
      reasonCode: 'amount_too_low',
      reason: 'across: minimum is 200 DAI',
    });
    expect(failed).toEqual({
      outputTargetId: 'to-arb',
      provider: 'across',
      symbol: '',
      address: TOKEN.daiEth.address,
      chainId: 1,
      reasonCode: 'amount_too_low',
      reason: 'across: minimum is 200 DAI',
      inputTokenIndex: 3,
      amount: '123456789000000000000000',
    });
  });
});

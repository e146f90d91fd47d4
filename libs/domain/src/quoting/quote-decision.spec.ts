import { type ProviderName } from '@svc/contract';
import { type AllocationLeg, type AllocationSlice } from '../allocation';
import { evaluateLeg } from './evaluate-leg';
import { chooseRoute, decideQuote } from './select-routes';
import { type SliceQuote } from './slice-quote';

const ORDER: ProviderName[] = ['relay', 'across', 'mayan'];
const target = {
  id: 't0',
  chainId: 8453,
  address: '0xusdc-base',
  decimals: 6,
  symbol: 'USDC',
  allocationPercent: 100,
};

function slice(
  i: number,
  kind: AllocationSlice['kind'],
  raw = 1_000_000n,
  usd: string | null = '1',
): AllocationSlice {
  return {
    sliceId: `t0:${i}`,
    targetId: 't0',
    sourceIndex: i,
    chainId: 1,
    address: `0xtoken${i}`,
    symbol: 'USDC',
    decimals: 6,
    rawAmount: raw,
    formattedAmount: '1',
    usdValue: usd,
    kind,
    isSameSymbolRoute: kind === 'route',
  };
}
const leg = (...slices: AllocationSlice[]): AllocationLeg => ({ target, slices });
const ok = (
  i: number,
  provider: ProviderName,
  expected: bigint,
  eta: number | null = 10,
  fee = 0.01,
): SliceQuote => ({
  sliceId: `t0:${i}`,
  provider,
  outcome: {
    ok: true,
    expectedOutputRaw: expected,
    minimumOutputRaw: (expected * 99n) / 100n,
    inputUsd: 1,
    outputUsd: Number(expected) / 1e6,
    feeUsd: fee,
    etaSeconds: eta,
  },
});
const fail = (i: number, provider: ProviderName, reasonCode = 'route_unavailable'): SliceQuote => ({
  sliceId: `t0:${i}`,
  provider,
  outcome: { ok: false, reasonCode, reason: 'no' },
});

/** given the providers' answers, when the quote is decided, then … */
function decide(
  l: AllocationLeg,
  quotes: SliceQuote[],
  allowPartial = false,
  providers: ProviderName[] = ORDER,
) {
  return decideQuote([evaluateLeg(l, providers, quotes)], allowPartial, ORDER);
}

describe('route evaluation and selection', () => {
  it('selects the full route with the highest expected output, summing slices and taking the slowest ETA', () => {
    const d = decide(leg(slice(0, 'route'), slice(1, 'route')), [
      ok(0, 'relay', 990_000n, 12),
      ok(1, 'relay', 980_000n, 30),
      ok(0, 'across', 995_000n, 4),
      ok(1, 'across', 994_000n, 5),
      fail(0, 'mayan'),
      ok(1, 'mayan', 999_000n),
    ]);
    expect(d.quoteStatus).toBe('ready');
    expect(d.coverageMode).toBe('full');
    const route = d.selected[0].route!;
    expect([route.provider, route.expectedOutputRaw, route.minimumOutputRaw, route.etaSeconds]).toEqual([
      'across',
      1_989_000n,
      985_050n + 984_060n,
      5,
    ]);
    const relay = d.allLegs[0].evaluated.routes.find((r) => r.provider === 'relay')!;
    expect([relay.expectedOutputRaw, relay.etaSeconds, relay.isBestReturn, relay.isFastest]).toEqual([
      1_970_000n,
      30,
      false,
      false,
    ]);
    const mayan = d.allLegs[0].evaluated.routes.find((r) => r.provider === 'mayan')!;
    expect([
      mayan.availability,
      mayan.coveredSliceCount,
      mayan.rejectedQuoteCount,
      mayan.isFullRoute,
    ]).toEqual(['partial', 1, 1, false]);
    expect(route.isBestReturn && route.isFastest).toBe(true);
  });

  it('breaks an output tie by speed, then by provider order', () => {
    const tieFast = decide(leg(slice(0, 'route')), [
      ok(0, 'relay', 1_000n, 20),
      ok(0, 'across', 1_000n, 5),
      ok(0, 'mayan', 1_000n, 5),
    ]);
    expect(tieFast.selected[0].route!.provider).toBe('across');
    const tieAll = decide(leg(slice(0, 'route')), [
      ok(0, 'mayan', 1_000n, 5),
      ok(0, 'across', 1_000n, 5),
      ok(0, 'relay', 1_000n, 5),
    ]);
    expect(tieAll.selected[0].route!.provider).toBe('relay');
  });

  it('counts no-ops as covered with their own amount, needing no quote', () => {
    const d = decide(
      leg(slice(0, 'noop', 5_000_000n), slice(1, 'route')),
      [ok(1, 'relay', 990_000n)],
      false,
      ['relay'],
    );
    const route = d.selected[0].route!;
    expect([
      route.isFullRoute,
      route.noopSliceCount,
      route.requiredQuoteCount,
      route.expectedOutputRaw,
    ]).toEqual([true, 1, 1, 5_990_000n]);
  });

  it('partial_only without allowPartial: the best partial plan is shown, the uncovered slices are listed', () => {
    const d = decide(
      leg(slice(0, 'route'), slice(1, 'route')),
      [ok(0, 'relay', 990_000n), fail(1, 'relay', 'amount_too_low')],
      false,
      ['relay'],
    );
    expect([d.quoteStatus, d.coverageMode, d.isFullPlan, d.selected.length]).toEqual([
      'partial_only',
      'partial',
      false,
      1,
    ]);
    expect(d.failedSources.map((f) => [f.slice.sliceId, f.provider, f.reasonCode])).toEqual([
      ['t0:1', 'relay', 'amount_too_low'],
    ]);
  });

  it('ready with allowPartial when something is covered, coverage partial', () => {
    const d = decide(
      leg(slice(0, 'route'), slice(1, 'route')),
      [ok(0, 'relay', 990_000n), fail(1, 'relay')],
      true,
      ['relay'],
    );
    expect([d.quoteStatus, d.coverageMode, d.isFullPlan]).toEqual(['ready', 'partial', false]);
  });

  it('picks the partial route covering the most input USD', () => {
    const routes = evaluateLeg(
      leg(slice(0, 'route', 1n, '10'), slice(1, 'route', 1n, '90')),
      ['relay', 'across'],
      [ok(0, 'relay', 999n), fail(1, 'relay'), fail(0, 'across'), ok(1, 'across', 5n)],
    ).routes;
    expect(chooseRoute(routes, ORDER)?.provider).toBe('across');
  });

  it('unavailable when nothing is covered: no plan, every failure listed per provider', () => {
    const d = decide(leg(slice(0, 'route')), [
      fail(0, 'relay'),
      fail(0, 'across', 'provider_timeout'),
      fail(0, 'mayan', 'provider_unavailable'),
    ]);
    expect([d.quoteStatus, d.coverageMode, d.selected]).toEqual(['unavailable', 'none', []]);
    expect(d.failedSources.map((f) => [f.provider, f.reasonCode])).toEqual([
      ['relay', 'route_unavailable'],
      ['across', 'provider_timeout'],
      ['mayan', 'provider_unavailable'],
    ]);
    expect(d.summary).toEqual({
      totalOutputUsd: null,
      totalFeeUsd: null,
      totalLossUsd: null,
      timeEstimate: null,
    });
  });

  it('no provider allowed: every slice fails no_allowed_provider and the quote is unavailable', () => {
    const d = decide(leg(slice(0, 'route'), slice(1, 'noop')), [], false, []);
    expect(d.quoteStatus).toBe('unavailable');
    expect(d.failedSources.map((f) => [f.slice.sliceId, f.provider, f.reasonCode])).toEqual([
      ['t0:0', null, 'no_allowed_provider'],
      ['t0:1', null, 'no_allowed_provider'],
    ]);
  });

  it('a same-chain swap is never covered: same_chain_unsupported on every route', () => {
    const d = decide(
      leg(slice(0, 'same_chain_unsupported'), slice(1, 'route')),
      [ok(1, 'relay', 10n)],
      true,
      ['relay'],
    );
    expect([d.quoteStatus, d.isFullPlan]).toEqual(['ready', false]);
    expect(d.failedSources.map((f) => [f.slice.sliceId, f.provider, f.reasonCode])).toEqual([
      ['t0:0', null, 'same_chain_unsupported'],
    ]);
  });

  it('loss is input − output − fees, never below 0, and fee and loss stay apart', () => {
    const lossy: SliceQuote = {
      sliceId: 't0:0',
      provider: 'relay',
      outcome: {
        ok: true,
        expectedOutputRaw: 900n,
        minimumOutputRaw: 890n,
        inputUsd: 10,
        outputUsd: 9,
        feeUsd: 0.25,
        etaSeconds: 1,
      },
    };
    const d = decide(leg(slice(0, 'route', 1_000n, '10')), [lossy], false, ['relay']);
    expect(d.summary).toEqual({ totalOutputUsd: 9, totalFeeUsd: 0.25, totalLossUsd: 0.75, timeEstimate: 1 });
    const gain: SliceQuote = {
      ...lossy,
      outcome: { ...(lossy.outcome as Extract<SliceQuote['outcome'], { ok: true }>), outputUsd: 10.5 },
    };
    expect(decide(leg(slice(0, 'route', 1_000n, '10')), [gain], false, ['relay']).summary.totalLossUsd).toBe(
      0,
    );
  });

  it('multi-target: ready only when every target has a full route', () => {
    const t1 = { ...target, id: 't1', chainId: 42161 };
    const l0 = leg(slice(0, 'route'));
    const l1: AllocationLeg = {
      target: t1,
      slices: [{ ...slice(1, 'route'), sliceId: 't1:1', targetId: 't1' }],
    };
    const quotes = [
      ok(0, 'relay', 1n),
      {
        sliceId: 't1:1',
        provider: 'relay' as const,
        outcome: { ok: false as const, reasonCode: 'route_unavailable', reason: 'no' },
      },
    ];
    const legs = [evaluateLeg(l0, ['relay'], quotes), evaluateLeg(l1, ['relay'], quotes)];
    expect(decideQuote(legs, false, ORDER).quoteStatus).toBe('partial_only');
    expect(decideQuote(legs, true, ORDER).selected.map((s) => s.evaluated.leg.target.id)).toEqual(['t0']);
  });

  it('given every source left out (a leg without slices), then the quote is unavailable with nothing selected, never ready', () => {
    for (const allowPartial of [false, true]) {
      const decision = decideQuote([evaluateLeg(leg(), ORDER, [])], allowPartial, ORDER);
      expect(decision).toMatchObject({
        quoteStatus: 'unavailable',
        coverageMode: 'none',
        isFullPlan: false,
        selected: [],
      });
    }
  });
});

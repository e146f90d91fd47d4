import { type QuoteRequest } from '@svc/contract';
import {
  providerQuote,
  quoteFailure,
  refuseAll,
  refusing,
  type Respond,
  routeQuote,
} from './provider-answers.test-helper';
import { FEE_RECIPIENT, quoteRequest, source, target, TOKEN } from './quote-request.test-helper';
import { sessionFees } from './session-execution';

const SERVICE_FEE_BPS = 20;

/** The service's fee and the request's markup, as QuoteIntentService hands them to the providers and to sessionFees. */
function feesOf(request: QuoteRequest, respond?: Respond) {
  const markupBps = request.feeBps ?? 0;
  const routed = routeQuote(request, {
    respond,
    fee: { bps: SERVICE_FEE_BPS + markupBps, recipient: FEE_RECIPIENT },
  });
  return sessionFees(
    routed.decision,
    { serviceFeeBps: SERVICE_FEE_BPS, markupBps, recipient: FEE_RECIPIENT },
    routed.gathered,
  );
}

const toBase = [target('t0', TOKEN.usdcBase)];

describe('sessionFees: the markup owed to the partner, per covered slice', () => {
  it('records the fee settings the providers were given', () => {
    const fees = feesOf(quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase, { feeBps: 30 }));
    expect([fees.serviceFeeBps, fees.markupBps, fees.recipient]).toEqual([20, 30, FEE_RECIPIENT]);
  });

  it("owes the partner nothing without a markup: the service's own fee is not theirs", () => {
    const fees = feesOf(quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase));
    expect([fees.serviceFeeBps, fees.markupOwed]).toEqual([20, []]);
  });

  it("owes markupBps of each slice's input, in the source token's base units and in USD", () => {
    const request = quoteRequest(
      [
        source(TOKEN.usdcArb, 40_000000n, { usdValue: '40' }),
        source(TOKEN.daiEth, 1_000n * 10n ** 18n, { usdValue: '1000.5' }),
      ],
      toBase,
      { feeBps: 30 },
    );
    expect(
      feesOf(request).markupOwed.map((o) => [o.sliceId, o.chainId, o.token, o.rawAmount, o.usd]),
    ).toEqual([
      ['t0:0', 42161, TOKEN.usdcArb.address, '120000', 0.12],
      ['t0:1', 1, TOKEN.daiEth.address, '3000000000000000000', 3.0015],
    ]);
  });

  it('keeps the USD figure to 6 decimals, as every USD display figure (docs/api-decisions.md)', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 500000n, { usdValue: '0.5' })], toBase, {
      feeBps: 1,
    });
    expect(feesOf(request).markupOwed[0].usd).toBe(0.00005);
  });

  it('rounds the raw amount down to a whole base unit, and leaves usd null when the input has no USD value', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 1_000_333n)], toBase, { feeBps: 30 });
    const [owed] = feesOf(request).markupOwed;
    expect([owed.rawAmount, owed.usd]).toEqual(['3000', null]);
  });

  it('owes nothing on a no-op (no provider took a fee) or on a slice the route does not cover', () => {
    const request = quoteRequest(
      [
        source(TOKEN.usdcBase, 5_000000n),
        source(TOKEN.usdcArb, 40_000000n),
        source(TOKEN.usdcEth, 7_000000n),
        source(TOKEN.wethBase, 10n ** 16n),
      ],
      toBase,
      { feeBps: 30, allowPartial: true },
    );
    const refuseEth: Respond = (p, s) =>
      s.sliceId === 't0:2' ? quoteFailure(p, 'amount_too_low') : providerQuote(p, s);
    expect(feesOf(request, refuseEth).markupOwed.map((o) => o.sliceId)).toEqual(['t0:1']);
  });

  it('owes nothing when the quote is unavailable', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase, { feeBps: 30 });
    expect(feesOf(request, refuseAll).markupOwed).toEqual([]);
  });

  describe('names the provider carrying each slice and how it pays the fee (collectedAs)', () => {
    const multiTarget = quoteRequest(
      [
        source(TOKEN.usdcEth, 100_000000n, { usdValue: '100' }),
        source(TOKEN.daiEth, 100n * 10n ** 18n, { usdValue: '100' }),
      ],
      [
        target('to-base', TOKEN.usdcBase, { allocationPercent: 50 }),
        target('to-arb', TOKEN.usdcArb, { allocationPercent: 50 }),
      ],
      { feeBps: 30 },
    );

    it('per slice, from the provider of its own leg', () => {
      // across (the cheapest) refuses everything bound for Arbitrum, so that leg goes to relay.
      const owed = feesOf(
        multiTarget,
        refusing('across', (id) => id.startsWith('to-arb:')),
      ).markupOwed;
      expect(owed.map((o) => [o.sliceId.split(':')[0], o.provider, o.collectedAs])).toEqual([
        [
          'to-base',
          'across',
          {
            paidAs: 'destination_transfer',
            bps: 50,
            chainId: 8453,
            token: TOKEN.usdcBase.address,
            claim: null,
          },
        ],
        [
          'to-arb',
          'relay',
          {
            paidAs: 'offchain_balance',
            bps: 50,
            chainId: null,
            token: null,
            claim: 'POST /app-fees/{recipient}/claim',
          },
        ],
      ]);
    });

    it("from the selected provider's quote, not from another provider's answer for the same slice", () => {
      const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase, { feeBps: 30 });
      const mayanBest: Respond = (p, s) =>
        providerQuote(p, s, p === 'mayan' ? { expectedOutputRaw: 40_000000n } : {});
      const [owed] = feesOf(request, mayanBest).markupOwed;
      expect([owed.provider, owed.collectedAs?.paidAs]).toEqual(['mayan', 'source_transfer']);
    });

    it('null, and nothing owed, when the provider reports that it takes no app fee', () => {
      const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase, { feeBps: 30 });
      const noFeeTaken: Respond = (p, s) => providerQuote(p, s, { appFee: null });
      const [owed] = feesOf(request, noFeeTaken).markupOwed;
      expect([owed.provider, owed.rawAmount, owed.usd, owed.collectedAs, owed.collectedBps]).toEqual([
        'across',
        '0',
        null,
        null,
        0,
      ]);
    });
  });

  describe('owes the partner its share of what the provider actually charges (review D12/D15)', () => {
    // 20 bps service fee + 150 bps markup asked; a Swift V2 order takes at most 100 bps.
    const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n, { usdValue: '40' })], toBase, {
      feeBps: 150,
    });
    const charging =
      (bps: number): Respond =>
      (p, s) =>
        providerQuote(p, s, {
          appFee: {
            paidAs: 'source_transfer',
            bps,
            chainId: 42161,
            token: TOKEN.usdcArb.address,
            claim: null,
          },
        });

    it('the whole markup when the whole rate is charged', () => {
      const [owed] = feesOf(request, charging(170)).markupOwed;
      expect([owed.rawAmount, owed.usd, owed.collectedBps]).toEqual(['600000', 0.6, 170]);
    });

    it('markupBps × charged / asked when the provider caps the rate, rounded down', () => {
      // 150 × 100 / 170 = 88.235… bps of 40 USDC: 352 941 base units (0.352941 USD).
      const [owed] = feesOf(request, charging(100)).markupOwed;
      expect([owed.rawAmount, owed.usd, owed.collectedBps]).toEqual(['352941', 0.352941, 100]);
    });

    it('never more than markupBps, whatever a provider claims to charge', () => {
      const [owed] = feesOf(request, charging(10_000)).markupOwed;
      expect([owed.rawAmount, owed.collectedBps]).toEqual(['600000', 170]);
    });
  });
});

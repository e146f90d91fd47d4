import {
  providerQuote,
  QUOTED_AT,
  refuseAll,
  type Respond,
  routeQuote,
} from './provider-answers.test-helper';
import { quoteRequest, source, target, TOKEN } from './quote-request.test-helper';
import { sessionExpiry } from './session-execution';

const TTL_SECONDS = 60;
const TTL_END = QUOTED_AT + TTL_SECONDS * 1000;
const toBase = [target('t0', TOKEN.usdcBase)];
const twoSlices = quoteRequest(
  [source(TOKEN.usdcArb, 40_000000n), source(TOKEN.usdcEth, 10_000000n)],
  toBase,
);

function expiryOf(
  request: ReturnType<typeof quoteRequest>,
  respond: Respond,
  providers = ['across' as const],
) {
  const { decision, gathered } = routeQuote(request, { respond, providers });
  return sessionExpiry(QUOTED_AT, TTL_SECONDS, decision, gathered);
}

/** Every provider answers; `validUntil` by slice id (absent: the provider names no deadline). */
const deadlines =
  (bySlice: Record<string, number>): Respond =>
  (p, s) =>
    providerQuote(p, s, { validUntil: bySlice[s.sliceId] ?? null });

describe('sessionExpiry: quote time + TTL, never later than a selected quote’s own deadline', () => {
  it('is quote time + TTL when no selected quote names a deadline', () => {
    expect(expiryOf(twoSlices, deadlines({}))).toBe(TTL_END);
  });

  it('is quote time + TTL when every deadline lies beyond it', () => {
    expect(expiryOf(twoSlices, deadlines({ 't0:0': TTL_END + 1, 't0:1': TTL_END + 90_000 }))).toBe(TTL_END);
  });

  it('is the earliest deadline among the selected slices when that comes sooner', () => {
    const bySlice = { 't0:0': QUOTED_AT + 45_000, 't0:1': QUOTED_AT + 30_000 };
    expect(expiryOf(twoSlices, deadlines(bySlice))).toBe(QUOTED_AT + 30_000);
  });

  it.each(['relay', 'mayan'] as const)(
    "ignores the deadline of a provider whose route was not selected (%s's, asked for the same slices)",
    (loser) => {
      // across gives the most and names no deadline here; the other provider's earlier one no longer matters.
      const respond: Respond = (p, s) =>
        providerQuote(p, s, { validUntil: p === 'across' ? null : QUOTED_AT + 5_000 });
      const { decision, gathered } = routeQuote(twoSlices, { respond, providers: [loser, 'across'] });
      expect(decision.selected[0].route?.provider).toBe('across');
      expect(sessionExpiry(QUOTED_AT, TTL_SECONDS, decision, gathered)).toBe(TTL_END);
    },
  );

  it('takes the earliest deadline across every selected leg (multi-target)', () => {
    const request = quoteRequest(
      [
        source(TOKEN.usdcEth, 100_000000n, { usdValue: '100' }),
        source(TOKEN.daiEth, 100n * 10n ** 18n, { usdValue: '100' }),
      ],
      [
        target('to-base', TOKEN.usdcBase, { allocationPercent: 50 }),
        target('to-arb', TOKEN.usdcArb, { allocationPercent: 50 }),
      ],
    );
    const respond: Respond = (p, s) =>
      providerQuote(p, s, {
        validUntil: s.sliceId.startsWith('to-arb:') ? QUOTED_AT + 20_000 : QUOTED_AT + 50_000,
      });
    expect(expiryOf(request, respond)).toBe(QUOTED_AT + 20_000);
  });

  it('is quote time + TTL when only no-ops are covered (no provider quote to honour)', () => {
    const noopOnly = quoteRequest([source(TOKEN.usdcBase, 5_000000n)], toBase);
    expect(expiryOf(noopOnly, deadlines({}))).toBe(TTL_END);
  });

  it('is quote time + TTL when the quote is unavailable', () => {
    expect(expiryOf(twoSlices, refuseAll)).toBe(TTL_END);
  });

  it('follows the configured TTL', () => {
    const { decision, gathered } = routeQuote(twoSlices, { respond: deadlines({}), providers: ['across'] });
    expect(sessionExpiry(QUOTED_AT, 15, decision, gathered)).toBe(QUOTED_AT + 15_000);
  });
});

import { allocate } from '@svc/domain';
import { PROVIDER_ORDER } from '../quoting.options';
import {
  FEE_RECIPIENT,
  RECIPIENT,
  TOKEN,
  WALLET,
  quoteRequest,
  source,
  target,
} from './quote-request.test-helper';
import { toAllocationInput } from './to-allocation-input';
import { toQuoteSlices } from './to-quote-slices';

const NO_FEE = { bps: 0, recipient: null };

function slicesFor(
  request: ReturnType<typeof quoteRequest>,
  providers: readonly ('relay' | 'across' | 'mayan')[] = PROVIDER_ORDER,
  fee: { bps: number; recipient: string | null } = NO_FEE,
) {
  return toQuoteSlices(request, allocate(toAllocationInput(request)), providers, fee);
}

describe('toQuoteSlices', () => {
  it('asks every considered provider for every route slice: slice by slice, providers in the given order', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcArb, 10_000000n), source(TOKEN.usdcEth, 20_000000n)],
      [target('t0', TOKEN.usdcBase)],
    );
    expect(slicesFor(request, ['across', 'relay']).map((r) => [r.slice.sliceId, r.provider])).toEqual([
      ['t0:0', 'across'],
      ['t0:0', 'relay'],
      ['t0:1', 'across'],
      ['t0:1', 'relay'],
    ]);
  });

  it('asks nobody for a no-op (already the target token) or a same-chain swap (no provider routes it)', () => {
    const request = quoteRequest(
      [
        source(TOKEN.usdcBase, 1_000000n),
        source(TOKEN.wethBase, 10n ** 15n),
        source(TOKEN.usdcArb, 3_000000n),
      ],
      [target('t0', TOKEN.usdcBase)],
      { allowPartial: true },
    );
    expect(slicesFor(request).map((r) => [r.slice.sliceId, r.provider])).toEqual([
      ['t0:2', 'relay'],
      ['t0:2', 'across'],
      ['t0:2', 'mayan'],
    ]);
  });

  it('asks nothing when no provider is considered', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 1_000000n)], [target('t0', TOKEN.usdcBase)]);
    expect(slicesFor(request, [])).toEqual([]);
  });

  it("asks for the slice's own amount from the wallet to the recipient, refunds going back to the wallet", () => {
    const request = quoteRequest([source(TOKEN.daiEth, 25n * 10n ** 18n)], [target('t0', TOKEN.usdcBase)], {
      slippageBps: 75,
    });
    const [{ slice }] = slicesFor(request, ['relay']);
    expect(slice).toEqual({
      sliceId: 't0:0',
      wallet: WALLET,
      recipient: RECIPIENT,
      refundTo: WALLET,
      source: {
        chainId: 1,
        token: TOKEN.daiEth.address,
        amount: 25n * 10n ** 18n,
        decimals: 18,
        symbol: 'DAI',
      },
      target: { chainId: 8453, token: TOKEN.usdcBase.address, decimals: 6, symbol: 'USDC' },
      slippageBps: 75,
      appFeeBps: 0,
      appFeeRecipient: null,
    });
  });

  it('sends no symbol the request did not give (providers are not handed a guess)', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcArb, 1_000000n, { symbol: false })],
      [target('t0', TOKEN.usdcBase, { symbol: false })],
    );
    const [{ slice }] = slicesFor(request, ['relay']);
    expect(['symbol' in slice.source, 'symbol' in slice.target]).toEqual([false, false]);
  });

  it('in the multi-target form, each slice asks for the target of its own leg', () => {
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
    const asked = slicesFor(request, ['relay']).map((r) => r.slice);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const slice of asked) {
      const expected = slice.sliceId.startsWith('to-base:') ? TOKEN.usdcBase : TOKEN.usdcArb;
      expect([slice.target.chainId, slice.target.token]).toEqual([expected.chainId, expected.address]);
    }
    expect(new Set(asked.map((s) => s.target.chainId))).toEqual(new Set([8453, 42161]));
  });

  describe('the app fee (service fee + partner markup) providers are asked to take', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 1_000000n)], [target('t0', TOKEN.usdcBase)]);

    it('is the combined bps, paid to the fee recipient, for every provider', () => {
      const asked = slicesFor(request, PROVIDER_ORDER, { bps: 35, recipient: FEE_RECIPIENT });
      expect(asked.map((r) => [r.provider, r.slice.appFeeBps, r.slice.appFeeRecipient])).toEqual([
        ['relay', 35, FEE_RECIPIENT],
        ['across', 35, FEE_RECIPIENT],
        ['mayan', 35, FEE_RECIPIENT],
      ]);
    });

    it('names no recipient when there is no fee, even with one configured', () => {
      const [{ slice }] = slicesFor(request, ['across'], { bps: 0, recipient: FEE_RECIPIENT });
      expect([slice.appFeeBps, slice.appFeeRecipient]).toEqual([0, null]);
    });
  });
});

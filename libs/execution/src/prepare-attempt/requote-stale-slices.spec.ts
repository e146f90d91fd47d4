import { type QuotedLegExecution } from '@svc/domain';
import {
  type ProviderAdapter,
  type ProviderQuote,
  type QuoteResult,
  type QuoteSlice,
  type RoutableProvider,
  storedQuote,
  storedQuoteSlice,
} from '@svc/providers';
import { requoteStaleSlices } from './requote-stale-slices';

const NOW = 1_800_000_000_000;
const asked: QuoteSlice = {
  sliceId: 's-1',
  wallet: '0x00000000000000000000000000000000000000aa',
  recipient: '0x00000000000000000000000000000000000000bb',
  refundTo: '0x00000000000000000000000000000000000000aa',
  source: {
    chainId: 1,
    token: '0x00000000000000000000000000000000000000c1',
    amount: 123_456_789_012_345_678n,
    decimals: 18,
  },
  target: { chainId: 8453, token: '0x00000000000000000000000000000000000000c2', decimals: 6 },
  slippageBps: 50,
  appFeeBps: 0,
  appFeeRecipient: null,
};
const quote = (over: Partial<ProviderQuote> = {}): ProviderQuote => ({
  provider: 'relay',
  sliceId: 's-1',
  expectedOutputRaw: 1_000_000n,
  minimumOutputRaw: 990_000n,
  inputUsd: null,
  outputUsd: null,
  feeUsd: null,
  feeBreakdown: [],
  lossUsd: null,
  etaSeconds: 20,
  calls: [
    {
      chainId: 1,
      to: '0x00000000000000000000000000000000000000d1',
      data: '0x01',
      value: 0n,
      gas: null,
      kind: 'deposit',
    },
  ],
  providerRequestId: 'req-1',
  validUntil: NOW + 3_600_000,
  trackingContext: { provider: 'relay', requestId: 'req-1', originChainId: 1, destinationChainId: 8453 },
  appFee: null,
  ...over,
});
const leg = (validUntil: number | null): QuotedLegExecution => ({
  targetId: 'usdc-base',
  provider: 'relay',
  noopSlices: [],
  slices: [
    {
      sliceId: 's-1',
      sourceIndex: 0,
      ...storedQuote(quote({ validUntil })),
      quotedWith: storedQuoteSlice(asked),
    },
  ],
});

/** A relay adapter that answers what the test scripts, and notes what it was asked. */
function scripted(answer: QuoteResult) {
  const asks: QuoteSlice[] = [];
  const adapter = { quote: (slice: QuoteSlice) => (asks.push(slice), Promise.resolve(answer)) };
  return { asks, adapters: { relay: adapter } as unknown as Record<RoutableProvider, ProviderAdapter> };
}
const down = (reason: string): QuoteResult => ({
  ok: false,
  failure: {
    provider: 'relay',
    reasonCode: 'provider_unavailable',
    reason,
    httpStatus: 503,
    providerCode: null,
  },
});
/** The signable window (30 s) plus execution time (30 s): a provider deadline before it is too short. */
const freshness = { quotedAt: NOW - 10_000, now: NOW, maxAgeMs: 120_000, deadlineFloor: NOW + 60_000 };

describe('requoteStaleSlices', () => {
  it('keeps a slice whose quote holds past the signable window plus execution time, asking nobody', async () => {
    const { asks, adapters } = scripted(down('unused'));
    const legs = [leg(NOW + 60_000)];
    expect(await requoteStaleSlices(legs, adapters, freshness, 1000)).toEqual({ ok: true, legs });
    expect(asks).toEqual([]);
  });

  it('asks again with the very same parameters (the raw amount exact) and stores the fresh quote', async () => {
    const fresh = quote({ providerRequestId: 'req-2', minimumOutputRaw: 995_000n, validUntil: NOW + 60_000 });
    const { asks, adapters } = scripted({ ok: true, quote: fresh });
    const result = await requoteStaleSlices([leg(NOW)], adapters, freshness, 1000);
    expect(asks).toEqual([asked]);
    expect(result.ok && result.legs[0].slices[0]).toMatchObject({
      providerRequestId: 'req-2',
      minimumOutputRaw: '995000',
      validUntil: NOW + 60_000,
      quotedWith: storedQuoteSlice(asked),
    });
  });

  it('renews a quote older than the freshness limit even when the provider named no deadline', async () => {
    const { asks, adapters } = scripted({ ok: true, quote: quote() });
    await requoteStaleSlices([leg(null)], adapters, { ...freshness, quotedAt: NOW - 120_000 }, 1000);
    expect(asks).toHaveLength(1);
  });

  it('refuses a fresh quote whose minimum is below the one the partner was shown', async () => {
    const { adapters } = scripted({ ok: true, quote: quote({ minimumOutputRaw: 989_999n }) });
    expect(await requoteStaleSlices([leg(NOW)], adapters, freshness, 1000)).toEqual({
      ok: false,
      message: "relay's fresh quote would deliver less than the quoted minimum; request a new quote",
    });
  });

  it('quotes again a slice whose provider deadline ends before the signable window plus execution time', async () => {
    // The black-box case of issue 24: still valid now, but a wallet signing at second 29 would miss it.
    const fresh = quote({ providerRequestId: 'req-2', validUntil: NOW + 3_600_000 });
    const { asks, adapters } = scripted({ ok: true, quote: fresh });
    const result = await requoteStaleSlices([leg(NOW + 30_000)], adapters, freshness, 1000);
    expect(asks).toEqual([asked]);
    expect(result.ok && result.legs[0].slices[0]).toMatchObject({
      providerRequestId: 'req-2',
      validUntil: NOW + 3_600_000,
    });
  });

  it('refuses a slice whose fresh quote still ends before the signable window plus execution time', async () => {
    const { adapters } = scripted({ ok: true, quote: quote({ validUntil: NOW + 30_000 }) });
    expect(await requoteStaleSlices([leg(NOW + 30_000)], adapters, freshness, 1000)).toEqual({
      ok: false,
      message:
        "relay's quote holds only 30 s, less than the signable window plus execution time (60 s) a wallet needs; request a new quote",
    });
    // Even a quote renewed for age alone.
    const aged = scripted({ ok: true, quote: quote({ validUntil: NOW + 59_999 }) });
    const old = { ...freshness, quotedAt: NOW - 120_000 };
    expect(await requoteStaleSlices([leg(null)], aged.adapters, old, 1000)).toMatchObject({ ok: false });
  });

  it('refuses when the provider cannot quote again', async () => {
    const { adapters } = scripted(down('down'));
    expect(await requoteStaleSlices([leg(NOW)], adapters, freshness, 1000)).toEqual({
      ok: false,
      message: 'relay could not renew its expired quote (provider_unavailable)',
    });
  });
});

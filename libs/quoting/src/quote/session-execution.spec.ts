import {
  DEPOSIT_CONTRACT,
  providerQuote,
  refuseAll,
  refusing,
  routeQuote,
} from './provider-answers.test-helper';
import {
  FEE_RECIPIENT,
  quoteRequest,
  source,
  target,
  TOKEN,
  WALLET,
  RECIPIENT,
} from './quote-request.test-helper';
import { sessionExecution } from './session-execution';

const toBase = [target('t0', TOKEN.usdcBase)];

describe('sessionExecution: what prepare needs, for the selected routes only', () => {
  it('one entry per selected leg, with the chosen provider, holding only that provider’s answers', () => {
    // Relay outbids across here, so the stored calls must be relay's, not across's for the same slice.
    const { decision, gathered } = routeQuote(quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase), {
      respond: (p, s) => providerQuote(p, s, p === 'relay' ? { expectedOutputRaw: 39_999_000n } : {}),
    });
    const execution = sessionExecution(decision, gathered);
    expect(execution.map((e) => [e.targetId, e.provider])).toEqual([['t0', 'relay']]);
    const [slice] = execution[0].slices;
    expect([slice.provider, slice.providerRequestId, slice.expectedOutputRaw]).toEqual([
      'relay',
      'relay-request-t0:0',
      '39999000',
    ]);
    expect(slice.calls.map((c) => c.to)).toEqual([TOKEN.usdcArb.address, DEPOSIT_CONTRACT.relay]);
  });

  it("keeps the provider's data verbatim, amounts as base-10 strings", () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase, { slippageBps: 30 });
    const { decision, gathered } = routeQuote(request, {
      providers: ['across'],
      respond: (p, s) =>
        providerQuote(p, s, {
          expectedOutputRaw: 39_980_000n,
          minimumOutputRaw: 39_860_060n,
          validUntil: 1_700_000_123_000,
          etaSeconds: 3,
        }),
    });
    const [slice] = sessionExecution(decision, gathered)[0].slices;
    expect(slice).toMatchObject({
      sliceId: 't0:0',
      sourceIndex: 0,
      provider: 'across',
      providerRequestId: 'across-request-t0:0',
      trackingContext: { provider: 'across', originChainId: 42161, destinationChainId: 8453 },
      expectedOutputRaw: '39980000',
      minimumOutputRaw: '39860060',
      validUntil: 1_700_000_123_000,
      etaSeconds: 3,
      appFee: null,
    });
    expect(slice.calls).toEqual([
      {
        chainId: 42161,
        to: TOKEN.usdcArb.address,
        data: expect.stringMatching(/^0x095ea7b3/),
        value: '0',
        gas: null,
        kind: 'approve',
        approval: { token: TOKEN.usdcArb.address, spender: DEPOSIT_CONTRACT.across, amount: '40000000' },
      },
      {
        chainId: 42161,
        to: DEPOSIT_CONTRACT.across,
        data: '0xad5425c6',
        value: '0',
        gas: '210000',
        kind: 'deposit',
        approval: null,
      },
    ]);
  });

  it('records exactly what the provider was asked, so prepare can ask again for a stale quote', () => {
    const request = quoteRequest([source(TOKEN.daiEth, 12n * 10n ** 18n)], toBase, { slippageBps: 80 });
    const { decision, gathered, requests } = routeQuote(request, {
      providers: ['mayan'],
      fee: { bps: 40, recipient: FEE_RECIPIENT },
    });
    const [slice] = sessionExecution(decision, gathered)[0].slices;
    expect(slice.quotedWith).toEqual({
      ...requests[0].slice,
      source: { ...requests[0].slice.source, amount: '12000000000000000000' },
    });
    expect(slice.quotedWith).toMatchObject({
      wallet: WALLET,
      recipient: RECIPIENT,
      slippageBps: 80,
      appFeeBps: 40,
      appFeeRecipient: FEE_RECIPIENT,
    });
  });

  it("records how the chosen provider pays this slice's app fee", () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase);
    const { decision, gathered } = routeQuote(request, {
      providers: ['mayan'],
      fee: { bps: 25, recipient: FEE_RECIPIENT },
    });
    expect(sessionExecution(decision, gathered)[0].slices[0].appFee).toEqual({
      paidAs: 'source_transfer',
      bps: 25,
      chainId: 42161,
      token: TOKEN.usdcArb.address,
      claim: null,
    });
  });

  it('is plain JSON (no bigint), as the IntentQuoted event stores it', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcBase, 2_000000n), source(TOKEN.daiEth, 3n * 10n ** 18n)],
      toBase,
    );
    const { decision, gathered } = routeQuote(request, { fee: { bps: 10, recipient: FEE_RECIPIENT } });
    const execution = sessionExecution(decision, gathered);
    expect(JSON.parse(JSON.stringify(execution))).toEqual(execution);
  });

  it('lists covered no-ops apart (prepare transfers them itself), never as provider slices', () => {
    const request = quoteRequest(
      [source(TOKEN.usdcBase, 2_500000n), source(TOKEN.usdcArb, 40_000000n)],
      toBase,
    );
    const { decision, gathered } = routeQuote(request);
    const [leg] = sessionExecution(decision, gathered);
    expect(leg.noopSlices).toEqual([
      { sliceId: 't0:0', sourceIndex: 0, chainId: 8453, token: TOKEN.usdcBase.address, rawAmount: '2500000' },
    ]);
    expect(leg.slices.map((s) => s.sliceId)).toEqual(['t0:1']);
  });

  it('leaves out what the chosen route does not cover: refused slices and same-chain swaps', () => {
    const request = quoteRequest(
      [
        source(TOKEN.usdcArb, 40_000000n),
        source(TOKEN.usdcEth, 10_000000n),
        source(TOKEN.wethBase, 10n ** 16n),
      ],
      toBase,
      { allowPartial: true },
    );
    const { decision, gathered } = routeQuote(request, {
      providers: ['relay'],
      respond: refusing('relay', (id) => id === 't0:1', 'amount_too_low'),
    });
    expect(decision.quoteStatus).toBe('ready');
    const [leg] = sessionExecution(decision, gathered);
    expect([leg.slices.map((s) => s.sliceId), leg.noopSlices]).toEqual([['t0:0'], []]);
  });

  it('is empty when the quote is unavailable', () => {
    const request = quoteRequest([source(TOKEN.usdcArb, 40_000000n)], toBase);
    const { decision, gathered } = routeQuote(request, {
      respond: refuseAll,
    });
    expect(decision.quoteStatus).toBe('unavailable');
    expect(sessionExecution(decision, gathered)).toEqual([]);
  });

  it('multi-target: each leg carries its own provider and its own slices', () => {
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
    // across (the cheapest) refuses everything bound for Arbitrum, so that leg goes to relay.
    const { decision, gathered } = routeQuote(request, {
      respond: refusing('across', (id) => id.startsWith('to-arb:')),
    });
    const execution = sessionExecution(decision, gathered);
    expect(execution.map((e) => [e.targetId, e.provider])).toEqual([
      ['to-base', 'across'],
      ['to-arb', 'relay'],
    ]);
    for (const leg of execution) {
      expect(leg.slices.length).toBeGreaterThan(0);
      for (const slice of leg.slices) {
        expect(slice.sliceId.startsWith(`${leg.targetId}:`)).toBe(true);
        expect(slice.provider).toBe(leg.provider);
      }
    }
  });
});

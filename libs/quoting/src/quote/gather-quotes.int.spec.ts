import { getMaxListeners } from 'node:events';
import { type QuoteSlice, type RoutableProvider } from '@svc/providers';
import { FairLimiter } from './fair-limiter';
import { gatherQuotes, quoteKey } from './gather-quotes';
import { providerQuote, QUOTED_AT } from './provider-answers.test-helper';
import { quoteSlice } from './quote-request.test-helper';
import { type Behaviour, QuoteScript } from './scripted-adapter.test-helper';

const SLICES = [
  quoteSlice({ sliceId: 't0:0' }),
  quoteSlice({ sliceId: 't0:1', source: { ...quoteSlice().source, amount: 7_500000n } }),
];
const everyProvider = (slices: QuoteSlice[]) =>
  slices.flatMap((slice) => (['relay', 'across', 'mayan'] as const).map((provider) => ({ provider, slice })));

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: performance.now() - start };
}

describe('gatherQuotes with scripted provider adapters (real timers)', () => {
  let script: QuoteScript;
  const adapters: QuoteScript['adapters'] = (scripts) => script.adapters(scripts);
  beforeEach(() => {
    script = new QuoteScript();
  });
  afterEach(() => script.settled());

  it('asks every provider for every slice at once: all requests are in flight together', async () => {
    const requests = everyProvider(SLICES);
    await gatherQuotes(requests, adapters({ relay: () => ({ afterMs: 150, answer: 'quote' }) }), 5_000);
    // Every request was started before the first answer came back: not one at a time, nor one provider at a time.
    expect(script.maxInFlight).toBe(requests.length);
  });

  it('shares each provider fairly between quotes in flight: a one-slice quote is not queued behind a large one', async () => {
    const limiters = { relay: new FairLimiter(2), across: new FairLimiter(2), mayan: new FairLimiter(2) };
    const slow = adapters({
      relay: () => ({ afterMs: 60, answer: 'quote' }),
      across: () => ({ afterMs: 60, answer: 'quote' }),
      mayan: () => ({ afterMs: 60, answer: 'quote' }),
    });
    const many = Array.from({ length: 10 }, (_, i) => quoteSlice({ sliceId: `t0:${i}` }));
    const large = timed(() =>
      gatherQuotes(everyProvider(many), slow, 5_000, { requestId: 'large', limiters }),
    );
    const small = timed(() =>
      gatherQuotes(everyProvider([SLICES[0]]), slow, 5_000, { requestId: 'small', limiters }),
    );
    const [big, one] = await Promise.all([large, small]);
    // 10 calls per provider, 2 at a time: ~5 rounds of 60 ms for the large quote; the small one waits one round.
    expect(big.ms).toBeGreaterThanOrEqual(280);
    expect(one.ms).toBeLessThan(big.ms / 2);
    expect(one.result.quotes.every((q) => q.outcome.ok)).toBe(true);
    expect(script.maxInFlight).toBeLessThanOrEqual(6);
  });

  it('a quote as large as the limits allow (59 slices × 3 providers) lets every call listen to its deadline', async () => {
    // Each call queued in a limiter and each adapter call listens to the quote's one signal: past Node's default of
    // 10 listeners, Node would print a leak warning for an ordinary large quote.
    const limiters = { relay: new FairLimiter(4), across: new FairLimiter(4), mayan: new FairLimiter(4) };
    const slices = Array.from({ length: 59 }, (_, i) => quoteSlice({ sliceId: `t0:${i}` }));
    const fast = adapters({
      relay: () => ({ afterMs: 1, answer: 'quote' }),
      across: () => ({ afterMs: 1, answer: 'quote' }),
      mayan: () => ({ afterMs: 1, answer: 'quote' }),
    });
    const { quotes } = await gatherQuotes(everyProvider(slices), fast, 5_000, { requestId: 'big', limiters });
    expect(quotes).toHaveLength(177);
    const signal = fast.relay.signals[0];
    expect(getMaxListeners(signal)).toBeGreaterThanOrEqual(2 * 177);
  });

  it('returns every answer in request order, whatever order they arrive in', async () => {
    const delays: Record<RoutableProvider, number> = { relay: 120, across: 10, mayan: 60 };
    const scripted =
      (p: RoutableProvider) =>
      (s: QuoteSlice): Behaviour => ({
        afterMs: delays[p] - (s.sliceId === 't0:1' ? 5 : 0),
        answer: 'quote',
      });
    const requests = everyProvider(SLICES);
    const { quotes } = await gatherQuotes(
      requests,
      adapters({ relay: scripted('relay'), across: scripted('across'), mayan: scripted('mayan') }),
      5_000,
    );
    expect(quotes.map((q) => [q.sliceId, q.provider])).toEqual(
      requests.map((r) => [r.slice.sliceId, r.provider]),
    );
  });

  it("hands an answer's figures to the evaluation and keeps the full quote and the question by quoteKey", async () => {
    const requests = everyProvider([SLICES[1]]);
    const { quotes, providerQuotes, asked } = await gatherQuotes(requests, adapters({}), 5_000);
    const across = providerQuote('across', SLICES[1]);
    expect(quotes[1]).toEqual({
      sliceId: 't0:1',
      provider: 'across',
      outcome: {
        ok: true,
        expectedOutputRaw: across.expectedOutputRaw,
        minimumOutputRaw: across.minimumOutputRaw,
        inputUsd: across.inputUsd,
        outputUsd: across.outputUsd,
        feeUsd: across.feeUsd,
        etaSeconds: across.etaSeconds,
      },
    });
    expect(providerQuotes.get(quoteKey('t0:1', 'across'))).toEqual(across);
    expect(providerQuotes.get(quoteKey('t0:1', 'relay'))?.provider).toBe('relay');
    expect([...asked.keys()]).toEqual([
      quoteKey('t0:1', 'relay'),
      quoteKey('t0:1', 'across'),
      quoteKey('t0:1', 'mayan'),
    ]);
    expect(asked.get(quoteKey('t0:1', 'mayan'))).toBe(SLICES[1]);
  });

  it('asks again only what changed since the earlier pass: the same slice reuses its answers, quote or refusal', async () => {
    // The first pass: two slices; mayan refuses t0:0. The second pass (excludeUneconomicSources left a source out):
    // t0:0 the same question, t0:1 a new amount. Only t0:1 is asked again, once per provider.
    const first = await gatherQuotes(
      everyProvider(SLICES),
      adapters({
        mayan: (slice) =>
          slice.sliceId === 't0:0'
            ? { afterMs: 10, answer: 'failure', reasonCode: 'route_unavailable', reason: 'no route' }
            : { afterMs: 10, answer: 'quote' },
      }),
      5_000,
    );
    const changed = quoteSlice({ sliceId: 't0:1', source: { ...quoteSlice().source, amount: 5_000000n } });
    const again = adapters({});
    const second = await gatherQuotes(
      everyProvider([SLICES[0], changed]),
      again,
      5_000,
      undefined,
      undefined,
      undefined,
      first,
    );
    expect(Object.values(again).map((a) => a.signals.length)).toEqual([1, 1, 1]);
    // t0:0: the earlier answers, the refusal included, and the earlier full quotes kept for the session record.
    expect(second.quotes.slice(0, 3)).toEqual(first.quotes.slice(0, 3));
    expect(second.quotes[2].outcome).toMatchObject({ ok: false, reasonCode: 'route_unavailable' });
    expect(second.providerQuotes.get(quoteKey('t0:0', 'across'))).toBe(
      first.providerQuotes.get(quoteKey('t0:0', 'across')),
    );
    // t0:1: asked afresh, for the new amount.
    expect(second.providerQuotes.get(quoteKey('t0:1', 'relay'))).toEqual(providerQuote('relay', changed));
    expect(second.asked.get(quoteKey('t0:1', 'relay'))).toBe(changed);
  });

  it('a quote that stops holding before a wallet could sign and execute it is route_unavailable, and not kept', async () => {
    // Issue 24: across holds until QUOTED_AT + 180 s, mayan + 300 s, relay names no deadline. Asked at + 150 s with
    // 60 s needed (the 30 s signable window plus execution time), across's 30 s cannot be prepared.
    const { quotes, providerQuotes } = await gatherQuotes(
      everyProvider([SLICES[0]]),
      adapters({}),
      5_000,
      undefined,
      {
        now: QUOTED_AT + 150_000,
        minimumMs: 60_000,
      },
    );
    expect(
      quotes.map((q) => [q.provider, q.outcome.ok ? 'ok' : [q.outcome.reasonCode, q.outcome.reason]]),
    ).toEqual([
      ['relay', 'ok'],
      [
        'across',
        [
          'route_unavailable',
          "across's quote holds only 30 s, less than the 60 s a wallet needs to sign and execute it",
        ],
      ],
      ['mayan', 'ok'],
    ]);
    expect([...providerQuotes.keys()]).toEqual([quoteKey('t0:0', 'relay'), quoteKey('t0:0', 'mayan')]);
    // Exactly the 60 s is enough.
    const enough = await gatherQuotes(everyProvider([SLICES[0]]), adapters({}), 5_000, undefined, {
      now: QUOTED_AT + 120_000,
      minimumMs: 60_000,
    });
    expect(enough.quotes.every((q) => q.outcome.ok)).toBe(true);
  });

  it("passes a provider's refusal on verbatim, for that provider and slice only", async () => {
    const requests = everyProvider(SLICES);
    const { quotes, providerQuotes, asked } = await gatherQuotes(
      requests,
      adapters({
        mayan: (s) =>
          s.sliceId === 't0:1'
            ? {
                afterMs: 5,
                answer: 'failure',
                reasonCode: 'amount_too_low',
                reason: 'mayan: minimum 10 USDC',
              }
            : { afterMs: 5, answer: 'quote' },
      }),
      5_000,
    );
    const outcome = (sliceId: string, provider: RoutableProvider) =>
      quotes.find((q) => q.sliceId === sliceId && q.provider === provider)!.outcome;
    expect(outcome('t0:1', 'mayan')).toEqual({
      ok: false,
      reasonCode: 'amount_too_low',
      reason: 'mayan: minimum 10 USDC',
    });
    expect([outcome('t0:0', 'mayan').ok, outcome('t0:1', 'relay').ok, outcome('t0:1', 'across').ok]).toEqual([
      true,
      true,
      true,
    ]);
    expect(providerQuotes.has(quoteKey('t0:1', 'mayan'))).toBe(false);
    expect(asked.has(quoteKey('t0:1', 'mayan'))).toBe(true);
  });

  it.each([
    // Never the error's text, which can name a host or a URL with a key in it (L8).
    [
      'an Error',
      new Error('connect ECONNREFUSED http://rpc.example/key-123'),
      'relay adapter failed (Error)',
    ],
    [
      'a TypeError',
      new TypeError('fetch failed: https://api.example/?apiKey=k'),
      'relay adapter failed (TypeError)',
    ],
    ['anything else', 'ECONNRESET', 'relay adapter failed (unknown error)'],
  ])(
    'an adapter that fails with %s is provider_unavailable for its slices, the others unaffected',
    async (_kind, error, reason) => {
      const { quotes, providerQuotes } = await gatherQuotes(
        everyProvider([SLICES[0]]),
        adapters({ relay: () => ({ afterMs: 5, answer: 'reject', error }) }),
        5_000,
      );
      expect(
        quotes.map((q) => [q.provider, q.outcome.ok ? 'ok' : [q.outcome.reasonCode, q.outcome.reason]]),
      ).toEqual([
        ['relay', ['provider_unavailable', reason]],
        ['across', 'ok'],
        ['mayan', 'ok'],
      ]);
      expect([...providerQuotes.keys()]).toEqual([quoteKey('t0:0', 'across'), quoteKey('t0:0', 'mayan')]);
    },
  );

  it('an adapter that throws before returning a promise is provider_unavailable too, not a failed quote', async () => {
    const throwing = adapters({});
    throwing.relay.quote = () => {
      throw new Error('sync boom');
    };
    const { quotes } = await gatherQuotes(everyProvider([SLICES[0]]), throwing, 5_000);
    expect(quotes.map((q) => [q.provider, q.outcome.ok ? 'ok' : q.outcome.reasonCode])).toEqual([
      ['relay', 'provider_unavailable'],
      ['across', 'ok'],
      ['mayan', 'ok'],
    ]);
  });

  describe('the deadline', () => {
    const DEADLINE_MS = 150;
    const SLOW_MS = 900;

    it('answers on time: a provider still silent at the deadline is provider_timeout, the others count', async () => {
      const requests = everyProvider(SLICES);
      const scripted = adapters({
        mayan: () => ({ afterMs: SLOW_MS, answer: 'quote' }), // ignores the abort signal
        across: (s) =>
          s.sliceId === 't0:0' ? { afterMs: SLOW_MS, answer: 'quote' } : { afterMs: 20, answer: 'quote' },
      });
      const { result, ms } = await timed(() => gatherQuotes(requests, scripted, DEADLINE_MS));
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      expect(ms).toBeLessThan(SLOW_MS / 2);
      expect(
        result.quotes.map((q) => [q.sliceId, q.provider, q.outcome.ok ? 'ok' : q.outcome.reasonCode]),
      ).toEqual([
        ['t0:0', 'relay', 'ok'],
        ['t0:0', 'across', 'provider_timeout'],
        ['t0:0', 'mayan', 'provider_timeout'],
        ['t0:1', 'relay', 'ok'],
        ['t0:1', 'across', 'ok'],
        ['t0:1', 'mayan', 'provider_timeout'],
      ]);
      const timedOut = result.quotes.find((q) => q.provider === 'mayan')!.outcome;
      expect(timedOut).toEqual({
        ok: false,
        reasonCode: 'provider_timeout',
        reason: `mayan did not answer within ${DEADLINE_MS} ms`,
      });
    });

    it('a late answer is not kept: no quote is stored for a slice that timed out', async () => {
      const scripted = adapters({ across: () => ({ afterMs: 250, answer: 'quote' }) });
      const { providerQuotes } = await gatherQuotes(everyProvider([SLICES[0]]), scripted, DEADLINE_MS);
      await script.settled(); // across answers now, after the result was returned
      expect([...providerQuotes.keys()]).toEqual([quoteKey('t0:0', 'relay'), quoteKey('t0:0', 'mayan')]);
    });

    it('aborts the signal the adapters were given when it fires', async () => {
      const scripted = adapters({ relay: () => ({ afterMs: 400, answer: 'quote' }) });
      await gatherQuotes(everyProvider([SLICES[0]]), scripted, DEADLINE_MS);
      const [signal] = scripted.relay.signals;
      expect(signal.aborted).toBe(true);
      expect((signal.reason as Error).message).toBe('quote deadline');
    });

    it('an adapter that gives up when aborted still counts as provider_timeout, not as a failure of its own', async () => {
      const scripted = adapters({ across: () => ({ answer: 'until-aborted' }) });
      const { quotes } = await gatherQuotes(everyProvider([SLICES[0]]), scripted, DEADLINE_MS);
      expect(quotes.map((q) => [q.provider, q.outcome.ok ? 'ok' : q.outcome.reasonCode])).toEqual([
        ['relay', 'ok'],
        ['across', 'provider_timeout'],
        ['mayan', 'ok'],
      ]);
    });

    it('is called off once every provider has answered: nothing is aborted afterwards', async () => {
      const deadlineMs = 400;
      const scripted = adapters({});
      const { ms } = await timed(() => gatherQuotes(everyProvider([SLICES[0]]), scripted, deadlineMs));
      expect(ms).toBeLessThan(deadlineMs);
      await script.after(deadlineMs + 50, () => undefined);
      expect(scripted.relay.signals.map((s) => s.aborted)).toEqual([false]);
    });

    it('nothing to ask: returns at once, without waiting for the deadline', async () => {
      const { result, ms } = await timed(() => gatherQuotes([], adapters({}), 2_000));
      expect(ms).toBeLessThan(200);
      expect([result.quotes, result.providerQuotes.size, result.asked.size]).toEqual([[], 0, 0]);
    });
  });
});

import { type SliceQuote } from '@svc/domain';
import { type ProviderQuote, type QuoteSlice } from '@svc/providers';
import { type GatheredQuotes, quoteKey } from './gather-quotes';
import { speculateOnAnswers } from './source-gas';

/** Two slices asked of the given providers; `answers` lists who has answered which slice so far. */
function sofar(providers: string[], answers: [string, string][]): GatheredQuotes {
  const asked = new Map<string, QuoteSlice>();
  for (const provider of providers)
    for (const sliceId of ['t0:0', 't0:1']) asked.set(quoteKey(sliceId, provider), {} as QuoteSlice);
  const quotes = answers.map(([sliceId, provider]): SliceQuote => ({
    sliceId,
    provider: provider as SliceQuote['provider'],
    outcome: { ok: false, reasonCode: 'route_unavailable', reason: 'no route' },
  }));
  return { asked, quotes, providerQuotes: new Map<string, ProviderQuote>() };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('speculateOnAnswers', () => {
  it('speculates once, when every provider but one has answered every slice, with the answers so far', async () => {
    const seen: number[] = [];
    const s = speculateOnAnswers((answers) => seen.push(answers.quotes.length));
    const providers = ['across', 'relay', 'mayan'];
    s.onAnswer(sofar(providers, [['t0:0', 'across']]));
    s.onAnswer(
      sofar(providers, [
        ['t0:0', 'across'],
        ['t0:1', 'across'],
        ['t0:0', 'relay'],
      ]),
    );
    await nextTurn();
    expect(seen).toEqual([]); // relay and mayan still owe answers
    s.onAnswer(
      sofar(providers, [
        ['t0:0', 'across'],
        ['t0:1', 'across'],
        ['t0:0', 'relay'],
        ['t0:1', 'relay'],
      ]),
    );
    await nextTurn();
    expect(seen).toEqual([4]);
    s.onAnswer(sofar(providers, [['t0:0', 'mayan']]));
    await nextTurn();
    expect(seen).toEqual([4]);
  });

  it('takes answers that come together together: the latest of the burst', async () => {
    const seen: number[] = [];
    const s = speculateOnAnswers((answers) => seen.push(answers.quotes.length));
    const providers = ['across', 'relay'];
    s.onAnswer(
      sofar(providers, [
        ['t0:0', 'across'],
        ['t0:1', 'across'],
      ]),
    );
    s.onAnswer(
      sofar(providers, [
        ['t0:0', 'across'],
        ['t0:1', 'across'],
        ['t0:0', 'relay'],
      ]),
    );
    await nextTurn();
    expect(seen).toEqual([3]);
  });

  it('never speculates after stop (the final plan is being estimated), nor when only one provider is asked', async () => {
    const seen: number[] = [];
    const stopped = speculateOnAnswers((answers) => seen.push(answers.quotes.length));
    stopped.onAnswer(
      sofar(
        ['across', 'relay'],
        [
          ['t0:0', 'across'],
          ['t0:1', 'across'],
        ],
      ),
    );
    stopped.stop();
    await nextTurn();
    const alone = speculateOnAnswers((answers) => seen.push(answers.quotes.length));
    alone.onAnswer(sofar(['across'], [['t0:0', 'across']]));
    await nextTurn();
    expect(seen).toEqual([]);
  });

  it('ignores what the speculation throws', async () => {
    const s = speculateOnAnswers(() => {
      throw new Error('cannot route');
    });
    s.onAnswer(
      sofar(
        ['across', 'relay'],
        [
          ['t0:0', 'across'],
          ['t0:1', 'across'],
        ],
      ),
    );
    await expect(nextTurn()).resolves.toBeUndefined();
  });
});

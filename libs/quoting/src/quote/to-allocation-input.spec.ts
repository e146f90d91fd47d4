import { TOKEN, quoteRequest, source, target } from './quote-request.test-helper';
import { toAllocationInput } from './to-allocation-input';

describe('toAllocationInput', () => {
  it('takes the single-target form as one target, with decimals and symbol from its targetToken', () => {
    const input = toAllocationInput(
      quoteRequest([source(TOKEN.usdcArb, 5_000000n)], [target('base', TOKEN.usdcBase)]),
    );
    expect(input.targets).toEqual([
      {
        id: 'base',
        chainId: 8453,
        address: TOKEN.usdcBase.address,
        decimals: 6,
        symbol: 'USDC',
        allocationPercent: 100,
      },
    ]);
  });

  it('takes the multi-target form in request order, each with its share', () => {
    const input = toAllocationInput(
      quoteRequest(
        [source(TOKEN.usdcEth, 5_000000n, { usdValue: '5' })],
        [
          target('arb', TOKEN.usdcArb, { allocationPercent: 30 }),
          target('base', TOKEN.wethBase, { allocationPercent: 70 }),
        ],
      ),
    );
    expect(input.targets.map((t) => [t.id, t.chainId, t.decimals, t.allocationPercent])).toEqual([
      ['arb', 42161, 6, 30],
      ['base', 8453, 18, 70],
    ]);
  });

  it('numbers sources by their request position and makes raw amounts exact bigints, beyond 2^53 too', () => {
    const big = 123_456_789_012_345_678_901_234_567_890n;
    const input = toAllocationInput(
      quoteRequest(
        [source(TOKEN.usdcEth, 7n, { usdValue: '0.000007' }), source(TOKEN.daiEth, big)],
        [target('base', TOKEN.usdcBase)],
      ),
    );
    expect(input.sources.map((s) => [s.index, s.address, s.amount, s.decimals, s.usdValue])).toEqual([
      [0, TOKEN.usdcEth.address, 7n, 6, '0.000007'],
      [1, TOKEN.daiEth.address, big, 18, null],
    ]);
  });

  it('a symbol the request did not give is null, never guessed', () => {
    const input = toAllocationInput(
      quoteRequest(
        [source(TOKEN.usdcArb, 1n, { symbol: false })],
        [target('base', TOKEN.usdcBase, { symbol: false })],
      ),
    );
    expect([input.sources[0].symbol, input.targets[0].symbol]).toEqual([null, null]);
  });
});

import { allocate } from './allocate';
import { TOKENS, source, target } from './allocation.fixture';

describe('allocate, single target', () => {
  describe('given sources on the target chain and elsewhere, and one USDC-on-Base target', () => {
    const sources = [
      source(2, TOKENS.usdcArb, 7_000_000n, '7'),
      source(0, { ...TOKENS.usdcBase, address: TOKENS.usdcBase.address.toLowerCase() }, 5_000_000n, '5.00'),
      source(1, TOKENS.wethBase, 10n ** 18n, null),
      source(3, TOKENS.daiEth, 3n * 10n ** 17n, '0.3'),
    ];
    const result = allocate({ sources, targets: [target('base-usdc', TOKENS.usdcBase)] });
    const slices = result.legs[0]?.slices ?? [];

    it('then there is one leg with one slice per source, whole amounts, ordered by source index', () => {
      expect(result.legs).toHaveLength(1);
      expect(slices.map((s) => [s.sourceIndex, s.rawAmount, s.formattedAmount])).toEqual([
        [0, 5_000_000n, '5'],
        [1, 10n ** 18n, '1'],
        [2, 7_000_000n, '7'],
        [3, 3n * 10n ** 17n, '0.3'],
      ]);
      expect(slices.map((s) => s.sliceId)).toEqual([
        'base-usdc:0',
        'base-usdc:1',
        'base-usdc:2',
        'base-usdc:3',
      ]);
    });

    it('then each slice is classified against the target', () => {
      expect(slices.map((s) => [s.kind, s.isSameSymbolRoute])).toEqual([
        ['noop', false], // same chain, same token (address case differs)
        ['same_chain_unsupported', false], // WETH on Base
        ['route', true], // USDC on Arbitrum
        ['route', false], // DAI on Ethereum
      ]);
    });

    it('then each slice carries its source USD value, null when the source had none', () => {
      expect(slices.map((s) => s.usdValue)).toEqual(['5', null, '7', '0.3']);
    });

    it('then each slice copies its source token', () => {
      expect(slices[1]).toMatchObject({
        targetId: 'base-usdc',
        chainId: 8453,
        address: TOKENS.wethBase.address,
        symbol: 'WETH',
        decimals: 18,
      });
    });
  });

  it('given a source without a symbol, then it is never a same-symbol route', () => {
    const sources = [source(0, { ...TOKENS.usdcEth, symbol: null }, 1n)];
    const targets = [target('t0', { ...TOKENS.usdcArb, symbol: null })];
    expect(allocate({ sources, targets }).legs[0]?.slices[0]).toMatchObject({
      kind: 'route',
      isSameSymbolRoute: false,
    });
  });

  it('given symbols that differ only in case, then the route is same-symbol', () => {
    const sources = [source(0, { ...TOKENS.usdcEth, symbol: 'usdc' }, 1n)];
    expect(allocate({ sources, targets: [target('t0', TOKENS.usdcArb)] }).legs[0]?.slices[0]).toMatchObject({
      kind: 'route',
      isSameSymbolRoute: true,
    });
  });
});

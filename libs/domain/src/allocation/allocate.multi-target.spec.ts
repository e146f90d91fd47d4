import { allocate } from './allocate';
import { TOKENS, source, target } from './allocation.fixture';
import { type AllocationResult } from './allocation.types';
import { legUsdValue } from './leg-usd-value';

/** [sourceIndex, rawAmount, usdValue, kind, isSameSymbolRoute] per slice, per leg: the whole plan at a glance. */
function plan(result: AllocationResult) {
  return Object.fromEntries(
    result.legs.map((leg) => [
      leg.target.id,
      leg.slices.map((s) => [s.sourceIndex, s.rawAmount, s.usdValue, s.kind, s.isSameSymbolRoute]),
    ]),
  );
}

describe('allocate, several targets', () => {
  it('given USDC on Base and USDC on Ethereum, then the Base source goes to the Base-USDC target (no-op first)', () => {
    const sources = [
      source(0, TOKENS.usdcBase, 500_000_000n, '500'),
      source(1, TOKENS.usdcEth, 500_000_000n, '500'),
    ];
    // The Arbitrum target comes first and both sources are same-symbol for it: only the no-op pass keeps it
    // from taking source 0.
    const targets = [target('arb', TOKENS.usdcArb, 50), target('base', TOKENS.usdcBase, 50)];

    expect(plan(allocate({ sources, targets }))).toEqual({
      arb: [[1, 500_000_000n, '500', 'route', true]],
      base: [[0, 500_000_000n, '500', 'noop', false]],
    });
  });

  it('given ETH and USDC sources, then each target takes its same-symbol source before any other', () => {
    const sources = [
      source(0, TOKENS.usdcEth, 1_000_000_000n, '1000'),
      source(1, TOKENS.ethBase, 10n ** 18n, '3000'),
    ];
    // In index order the ETH target would start on the USDC source; the same-symbol pass prevents it.
    const targets = [target('eth', TOKENS.ethArb, 75), target('usdc', TOKENS.usdcArb, 25)];

    expect(plan(allocate({ sources, targets }))).toEqual({
      eth: [[1, 10n ** 18n, '3000', 'route', true]],
      usdc: [[0, 1_000_000_000n, '1000', 'route', true]],
    });
  });

  describe('given $1000 of USDC and 1 WETH worth $3000, split 50/50 into USDC and ETH on Arbitrum', () => {
    const sources = [
      source(0, TOKENS.usdcEth, 1_000_000_000n, '1000'),
      source(1, TOKENS.wethBase, 10n ** 18n, '3000'),
    ];
    const targets = [target('usdc', TOKENS.usdcArb, 50), target('eth', TOKENS.ethArb, 50)];
    const result = allocate({ sources, targets });

    it('then WETH is split across both targets and its pieces sum exactly to its amount', () => {
      expect(plan(result)).toEqual({
        usdc: [
          [0, 1_000_000_000n, '1000', 'route', true],
          [1, 333_333_333_333_333_333n, '999.999999999999999', 'route', false],
        ],
        // The last piece of the WETH source takes the rounding dust, in raw units and in USD.
        eth: [[1, 666_666_666_666_666_667n, '2000.000000000000001', 'route', false]],
      });
    });

    it('then each leg carries its $2000 quota to within one wei of WETH', () => {
      expect(result.legs.map(legUsdValue)).toEqual(['1999.999999999999999', '2000.000000000000001']);
    });

    it('then slice ids are unique and name target and source', () => {
      expect(result.legs.flatMap((l) => l.slices.map((s) => s.sliceId))).toEqual([
        'usdc:0',
        'usdc:1',
        'eth:1',
      ]);
      expect(result.legs[0]?.slices[1]?.formattedAmount).toBe('0.333333333333333333');
    });
  });

  it('given one source split 33.33/33.33/33.34, then the raw pieces are exact and the last takes the dust', () => {
    const sources = [source(0, TOKENS.ethBase, 10n ** 18n + 1n, '100')];
    const targets = [
      target('a', TOKENS.usdcArb, 33.33),
      target('b', TOKENS.usdcEth, 33.33),
      target('c', TOKENS.daiEth, 33.34),
    ];
    const result = allocate({ sources, targets });

    expect(plan(result)).toEqual({
      a: [[0, 333_300_000_000_000_000n, '33.329999999999999966', 'route', false]],
      b: [[0, 333_300_000_000_000_000n, '33.329999999999999966', 'route', false]],
      c: [[0, 333_400_000_000_000_001n, '33.340000000000000068', 'route', false]],
    });
  });

  it('given USDC on three chains and targets 33.33/33.33/33.34, then no-ops fill first and one source is split in three', () => {
    const sources = [
      source(0, TOKENS.usdcEth, 40_000_000n, '40'),
      source(1, TOKENS.usdcBase, 30_000_000n, '30'),
      source(2, TOKENS.usdcArb, 30_000_000n, '30'),
    ];
    const targets = [
      target('eth', TOKENS.usdcEth, 33.33),
      target('base', TOKENS.usdcBase, 33.33),
      target('arb', TOKENS.usdcArb, 33.34),
    ];

    expect(plan(allocate({ sources, targets }))).toEqual({
      eth: [[0, 33_330_000n, '33.33', 'noop', false]],
      base: [
        [0, 3_330_000n, '3.33', 'route', true],
        [1, 30_000_000n, '30', 'noop', false],
      ],
      arb: [
        [0, 3_340_000n, '3.34', 'route', true],
        [2, 30_000_000n, '30', 'noop', false],
      ],
    });
  });

  it('given a target whose quota the no-op sources fill exactly, then it gets nothing else', () => {
    const sources = [
      source(0, TOKENS.usdcBase, 300_000_000n, '300'),
      source(1, TOKENS.wethBase, 25n * 10n ** 16n, '700'),
    ];
    const targets = [target('base', TOKENS.usdcBase, 30), target('eth', TOKENS.ethArb, 70)];

    expect(plan(allocate({ sources, targets }))).toEqual({
      base: [[0, 300_000_000n, '300', 'noop', false]],
      eth: [[1, 25n * 10n ** 16n, '700', 'route', false]],
    });
  });

  it('given a no-op source larger than its target quota, then the rest of it is routed to the other target', () => {
    const sources = [source(0, TOKENS.usdcBase, 1_000_000_000n, '1000')];
    const targets = [target('base', TOKENS.usdcBase, 40), target('dai', TOKENS.daiEth, 60)];

    expect(plan(allocate({ sources, targets }))).toEqual({
      base: [[0, 400_000_000n, '400', 'noop', false]],
      dai: [[0, 600_000_000n, '600', 'route', false]],
    });
  });

  describe('given an indivisible token (0 decimals)', () => {
    const gold = {
      chainId: 10,
      address: '0x00000000000000000000000000000000000000aa',
      symbol: 'GOLD',
      decimals: 0,
    };
    const targets = [target('a', TOKENS.usdcArb, 50), target('b', TOKENS.usdcEth, 50)];

    it('when 3 units worth $300 are split in half, then the floor goes first and the dust last', () => {
      const result = allocate({ sources: [source(0, gold, 3n, '300')], targets });
      expect(plan(result)).toEqual({
        a: [[0, 1n, '100', 'route', false]],
        b: [[0, 2n, '200', 'route', false]],
      });
    });

    it('when a half is worth less than one unit, then that piece is dropped, never emitted as zero', () => {
      const result = allocate({ sources: [source(0, gold, 1n, '100')], targets });
      expect(plan(result)).toEqual({ a: [], b: [[0, 1n, '100', 'route', false]] });
    });
  });

  it('given USD values finer than 10^-18, then the split stays exact', () => {
    const tiny = '0.0000000000000000000003'; // 22 fraction digits: the USD scale widens to 10^22
    const sources = [source(0, TOKENS.usdcEth, 4n, tiny), source(1, TOKENS.usdcArb, 2n, tiny)];
    const targets = [target('eth', TOKENS.usdcEth, 50), target('arb', TOKENS.usdcArb, 50)];

    expect(plan(allocate({ sources, targets }))).toEqual({
      eth: [[0, 4n, tiny, 'noop', false]],
      arb: [[1, 2n, tiny, 'noop', false]],
    });
  });
});

describe('allocate: same-chain pairings last', () => {
  it('fills a quota from a cross-chain source before a same-chain swap that could never route', () => {
    const wethBase = {
      index: 0,
      chainId: 8453,
      address: '0x00000000000000000000000000000000000000a1',
      amount: 100n,
      decimals: 0,
      symbol: 'WETH',
      usdValue: '100',
    };
    const wethEth = {
      index: 1,
      chainId: 1,
      address: '0x00000000000000000000000000000000000000b2',
      amount: 100n,
      decimals: 0,
      symbol: 'WETH',
      usdValue: '100',
    };
    const usdcBase = {
      id: 'base-usdc',
      chainId: 8453,
      address: '0x00000000000000000000000000000000000000c3',
      decimals: 6,
      symbol: 'USDC',
      allocationPercent: 50,
    };
    const usdcEth = {
      id: 'eth-usdc',
      chainId: 1,
      address: '0x00000000000000000000000000000000000000d4',
      decimals: 6,
      symbol: 'USDC',
      allocationPercent: 50,
    };
    const result = allocate({ sources: [wethBase, wethEth], targets: [usdcBase, usdcEth] });
    // By index order alone, base-USDC would take WETH-on-base and eth-USDC WETH-on-ethereum: two same-chain swaps.
    expect(result.legs.flatMap((l) => l.slices.map((s) => [l.target.id, s.sourceIndex, s.kind]))).toEqual([
      ['base-usdc', 1, 'route'],
      ['eth-usdc', 0, 'route'],
    ]);
  });
});

import { extraTokensFor, type ManifestToken, planBenchRequest } from './bench-request';
import { percentile, readQuoteFacts } from './quote-stats';

const STANDARD = ['USDC', 'USDT', 'WETH', 'ETH'];

function tokens(extra: number): ManifestToken[] {
  return [1, 8453, 42161].flatMap((chainId) =>
    [...STANDARD, ...Array.from({ length: extra }, (_, i) => `BENCH${String(i + 1).padStart(2, '0')}`)].map(
      (symbol, i) => ({
        chainId,
        symbol,
        address: `0x${String(i + 1).padStart(40, '0')}`,
        decimals: symbol.startsWith('USD') ? 6 : 18,
      }),
    ),
  );
}

describe('planBenchRequest', () => {
  it('makes 50 distinct sources: the target USDC on base as the no-op, 49 routed off base', () => {
    expect(extraTokensFor(50)).toBe(21);
    const plan = planBenchRequest({ tokens: tokens(21), wallet: '0xabc', count: 50 });
    const { sources } = plan.body;
    expect(sources).toHaveLength(50);
    expect(new Set(sources.map((s) => `${s.chainId}:${s.address}`)).size).toBe(50);
    expect(sources.filter((s) => s.chainId === 8453)).toEqual([
      expect.objectContaining({ symbol: 'USDC', address: plan.body.target.address }),
    ]);
    expect(sources.filter((s) => s.chainId === 1)).toHaveLength(25);
    expect(sources.filter((s) => s.chainId === 42161)).toHaveLength(24);
    expect(plan).toMatchObject({ routedSources: 49, noopSources: 1 });
    expect(sources.find((s) => s.symbol === 'WETH')?.amount).toBe('50000000000000000');
    expect(sources.find((s) => s.symbol === 'BENCH01')?.amount).toBe('100000000000000000000');
  });

  it('routes base sources when asked for another target chain (the source gas figure: USDC on arbitrum)', () => {
    const plan = planBenchRequest({ tokens: tokens(21), wallet: '0xabc', count: 50, targetChainId: 42161 });
    const { sources, target } = plan.body;
    expect(target).toMatchObject({ chainId: 42161, address: sources[0].address });
    expect(sources.filter((s) => s.chainId === 42161)).toEqual([
      expect.objectContaining({ symbol: 'USDC', address: target.address }),
    ]);
    expect(sources.filter((s) => s.chainId === 1)).toHaveLength(25);
    expect(sources.filter((s) => s.chainId === 8453)).toHaveLength(24);
    expect(new Set(sources.map((s) => `${s.chainId}:${s.address}`)).size).toBe(50);
  });

  it('says what is missing when the sandbox lists too few tokens', () => {
    expect(() => planBenchRequest({ tokens: tokens(0), wallet: '0xabc', count: 50 })).toThrow(
      'raise SANDBOX_EXTRA_TOKENS',
    );
  });
});

describe('quote stats', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 30 }, (_, i) => 30 - i);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 100)]).toEqual([15, 29, 30]);
  });

  it('counts provider calls and failures per provider from route evaluations', () => {
    const facts = readQuoteFacts({
      quoteStatus: 'ready',
      routeEvaluations: [
        {
          evaluations: [
            {
              provider: 'relay',
              requiredQuoteCount: 49,
              noopSliceCount: 1,
              coveredSliceCount: 50,
              failedSources: [],
            },
            {
              provider: 'mayan',
              requiredQuoteCount: 49,
              noopSliceCount: 1,
              coveredSliceCount: 1,
              failedSources: [{ provider: 'mayan', reasonCode: 'provider_timeout' }],
            },
          ],
        },
      ],
    });
    expect(facts.providerCalls).toBe(98);
    expect(facts.byProvider['mayan'].failed).toEqual({ provider_timeout: 1 });
    expect(() => readQuoteFacts({ code: 'not_implemented' })).toThrow('not a quote response');
  });
});

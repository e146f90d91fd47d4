import { computeQuote, type QuoteMarket, type QuoteRequest, type QuoteToken } from './compute-quote';
import { DEFAULT_PRICES } from './price-table';
import { DEFAULT_ECONOMICS } from './provider-economics';
import { AmountTooLowError, QuoteParamError, SameChainRouteError, UnknownTokenError } from './quote-errors';

const ZERO = '0x0000000000000000000000000000000000000000';
const tokens: QuoteToken[] = [
  { chainId: 1, symbol: 'USDC', address: '0x00000000000000000000000000000000000000a1', decimals: 6 },
  { chainId: 1, symbol: 'WETH', address: '0x00000000000000000000000000000000000000a2', decimals: 18 },
  { chainId: 1, symbol: 'ETH', address: ZERO, decimals: 18 },
  { chainId: 8453, symbol: 'USDC', address: '0x00000000000000000000000000000000000000b1', decimals: 6 },
  { chainId: 8453, symbol: 'USDT', address: '0x00000000000000000000000000000000000000b2', decimals: 6 },
  { chainId: 8453, symbol: 'WETH', address: '0x00000000000000000000000000000000000000b3', decimals: 18 },
  { chainId: 8453, symbol: 'ETH', address: ZERO, decimals: 18 },
  { chainId: 8453, symbol: 'DOGE', address: '0x00000000000000000000000000000000000000b4', decimals: 8 },
];
const [usdc1, weth1, eth1, usdc8453, usdt8453, weth8453, eth8453] = tokens.map((t) => t.address);

function market(provider: QuoteRequest['provider']): QuoteMarket {
  return { tokens, prices: DEFAULT_PRICES, economics: DEFAULT_ECONOMICS[provider] };
}

function request(overrides: Partial<QuoteRequest>): QuoteRequest {
  return {
    provider: 'relay',
    originChainId: 1,
    destinationChainId: 8453,
    inputToken: usdc1,
    outputToken: usdc8453,
    amountIn: 1_000_000_000n,
    slippageBps: 50,
    appFeeBps: 0,
    ...overrides,
  };
}

describe('computeQuote', () => {
  it.each([
    {
      name: 'relay 1000 USDC -> USDC: 10 bps + $0.02 flat',
      req: request({}),
      grossOut: 1_000_000_000n,
      providerFeeOut: 1_020_000n,
      appFeeOut: 0n,
      expectedOut: 998_980_000n,
      minOut: 993_985_100n,
    },
    {
      name: 'across 3000 USDC -> WETH across decimals, 10 bps app fee, 1% slippage',
      req: request({
        provider: 'across',
        outputToken: weth8453,
        amountIn: 3_000_000_000n,
        appFeeBps: 10,
        slippageBps: 100,
      }),
      grossOut: 10n ** 18n,
      providerFeeOut: 6n * 10n ** 14n,
      appFeeOut: 10n ** 15n,
      expectedOut: 998_400_000_000_000_000n,
      minOut: 988_416_000_000_000_000n,
    },
    {
      name: 'mayan 0.5 WETH -> USDT: 15 bps',
      req: request({
        provider: 'mayan',
        inputToken: weth1,
        outputToken: usdt8453,
        amountIn: 5n * 10n ** 17n,
        slippageBps: 30,
      }),
      grossOut: 1_500_000_000n,
      providerFeeOut: 2_250_000n,
      appFeeOut: 0n,
      expectedOut: 1_497_750_000n,
      minOut: 1_493_256_750n,
    },
    {
      name: 'relay native ETH -> native ETH, zero slippage',
      req: request({ inputToken: eth1, outputToken: eth8453, amountIn: 10n ** 18n, slippageBps: 0 }),
      grossOut: 10n ** 18n,
      providerFeeOut: 10n ** 15n + 6_666_666_666_666n,
      appFeeOut: 0n,
      expectedOut: 10n ** 18n - 10n ** 15n - 6_666_666_666_666n,
      minOut: 10n ** 18n - 10n ** 15n - 6_666_666_666_666n,
    },
  ])('$name', ({ req, grossOut, providerFeeOut, appFeeOut, expectedOut, minOut }) => {
    const quote = computeQuote(req, market(req.provider));
    expect(quote).toMatchObject({ grossOut, providerFeeOut, appFeeOut, expectedOut, minOut });
    expect(quote.expectedOut).toBe(quote.grossOut - quote.providerFeeOut - quote.appFeeOut);
  });

  it('reports fees in input units and USD values in micro-USD', () => {
    const quote = computeQuote(request({ appFeeBps: 25 }), market('relay'));
    expect(quote.providerFeeIn).toBe(1_020_000n);
    expect(quote.appFeeIn).toBe(2_500_000n);
    expect(quote.amountInUsd).toBe(1_000_000_000n);
    expect(quote.expectedOutUsd).toBe(996_480_000n);
    expect(quote.etaSeconds).toBe(12);
  });

  it('matches token addresses case-insensitively', () => {
    const quote = computeQuote(
      request({ outputToken: usdc8453.toUpperCase().replace('0X', '0x') }),
      market('relay'),
    );
    expect(quote.tokenOut.symbol).toBe('USDC');
  });

  it.each([
    {
      name: 'same chain',
      req: request({ destinationChainId: 1, outputToken: weth1 }),
      error: SameChainRouteError,
    },
    { name: 'unknown input token', req: request({ inputToken: usdc8453 }), error: UnknownTokenError },
    {
      name: 'unknown output token',
      req: request({ outputToken: '0x00000000000000000000000000000000000000ff' }),
      error: UnknownTokenError,
    },
    {
      name: 'token without a price',
      req: request({ outputToken: tokens[7].address }),
      error: UnknownTokenError,
    },
    { name: 'fees eat the whole amount', req: request({ amountIn: 20_000n }), error: AmountTooLowError },
    { name: 'zero amount', req: request({ amountIn: 0n }), error: QuoteParamError },
    { name: 'slippage of 100%', req: request({ slippageBps: 10_000 }), error: QuoteParamError },
    { name: 'fractional app fee', req: request({ appFeeBps: 1.5 }), error: QuoteParamError },
  ])('refuses: $name', ({ req, error }) => {
    expect(() => computeQuote(req, market(req.provider))).toThrow(error);
  });

  it('prices native ETH input against WETH output', () => {
    const quote = computeQuote(
      request({ inputToken: eth1, outputToken: weth8453, amountIn: 10n ** 18n }),
      market('across'),
    );
    expect(quote.expectedOut).toBe(10n ** 18n - 6n * 10n ** 14n);
  });
});

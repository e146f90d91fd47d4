import { type QuoteRequest, type SourceInput } from '@svc/contract';
import { type SourceGasFigures } from './source-gas-figures';
import { sourceGasReport, type SourceGasReportInput, uneconomicSourceIndexes } from './source-gas-report';

const NATIVE = '0x0000000000000000000000000000000000000000';
const USDC = '0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48';
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const GWEI = 1_000_000_000n;

const source = (chainId: number, address: string, amount: string, extra: Partial<SourceInput> = {}) => ({
  chainId,
  address,
  amount,
  decimals: address === NATIVE ? 18 : 6,
  ...extra,
});

function request(sources: SourceInput[], extra: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    recipient: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    sources,
    slippageBps: 50,
    allowPartial: false,
    target: {
      id: 't0',
      chainId: 8453,
      address: USDC,
      allocationPercent: 100,
      targetToken: { address: USDC, decimals: 6 },
    },
    ...extra,
  } as QuoteRequest;
}

/** gas units at (base fee + tip), plus an L1 data fee: what the chain said. */
function figures(index: number, chainId: number, gas: bigint, baseFee: bigint, tip: bigint, l1 = 0n) {
  return {
    inputTokenIndex: index,
    chainId,
    nativeSymbol: 'ETH',
    status: 'estimated',
    reason: null,
    transactions: [
      {
        kind: 'deposit',
        to: USDC,
        gasUnits: gas.toString(),
        gasMethod: 'simulated',
        l1DataFeeWei: l1.toString(),
      },
    ],
    gasUnits: gas,
    baseFeePerGas: baseFee,
    priorityFeePerGas: tip,
    l1DataFee: l1,
    costNative: gas * (baseFee + tip) + l1,
  } satisfies SourceGasFigures;
}

const ETH_SYMBOLS = new Map([
  [1, 'ETH'],
  [8453, 'ETH'],
  [42161, 'ETH'],
]);

function report(input: Partial<SourceGasReportInput> & Pick<SourceGasReportInput, 'figures' | 'request'>) {
  return sourceGasReport({ providerValues: [], nativeSymbols: ETH_SYMBOLS, ...input });
}

describe('sourceGasReport (docs/source-economics.md)', () => {
  // 150 000 gas at 20 + 1 gwei = 0.00315 ETH; at $3 000 an ETH that is $9.45.
  const mainnetDeposit = figures(0, 1, 150_000n, 20n * GWEI, GWEI);

  it('given an ETH price from a native source of the request, when a $3 USDC source on mainnet costs $9.45, then it is uneconomic at the default threshold, with every figure', () => {
    const r = report({
      figures: [mainnetDeposit, figures(1, 42161, 300_000n, GWEI / 100n, 0n)],
      request: request([
        source(1, USDC, '3000000', { usdValue: '3' }),
        source(42161, NATIVE, '1000000000000000000', { usdValue: '3000' }),
      ]),
    });
    expect(r.thresholdBps).toBe(5000);
    expect(r.excludeUneconomicSources).toBe(false);
    expect(r.sources[0]).toMatchObject({
      inputTokenIndex: 0,
      status: 'estimated',
      gasUnits: '150000',
      baseFeePerGasWei: (20n * GWEI).toString(),
      priorityFeePerGasWei: GWEI.toString(),
      costNativeRaw: '3150000000000000',
      nativePriceUsd: 3000,
      nativePriceSource: 'request_source',
      costUsd: 9.45,
      valueUsd: 3,
      valueSource: 'request',
      netValueUsd: -6.45,
      costShareBps: 31_500,
      uneconomic: true,
      excluded: false,
    });
    // The ETH source pays 0.000003 ETH of gas out of 1 ETH: 0.003%, ceil'd to 1 bps, exact in wei.
    expect(r.sources[1]).toMatchObject({
      costNativeRaw: '3000000000000',
      costShareBps: 1,
      uneconomic: false,
    });
    expect(r.totals).toMatchObject({
      costUsd: 9.459,
      valueUsd: 3003,
      netValueUsd: 2993.541,
      uneconomicSourceCount: 1,
      excludedSourceCount: 0,
      perChain: [
        {
          chainId: 1,
          nativeSymbol: 'ETH',
          transactionCount: 1,
          gasUnits: '150000',
          costNativeRaw: '3150000000000000',
          atomicBatchGasUnits: '150000',
          atomicBatchCostNativeRaw: '3150000000000000',
        },
        {
          chainId: 42161,
          nativeSymbol: 'ETH',
          transactionCount: 1,
          gasUnits: '300000',
          costNativeRaw: '3000000000000',
          atomicBatchGasUnits: '300000',
          atomicBatchCostNativeRaw: '3000000000000',
        },
      ],
    });
    expect(uneconomicSourceIndexes(r)).toEqual([0]);
  });

  it('given the request threshold, when the gas share is just under or at it, then at is uneconomic and under is not', () => {
    // $9.45 of gas on $18.90 is exactly 5 000 bps; on $18.91 just under.
    const at = (value: string, thresholdBps?: number) =>
      report({
        figures: [mainnetDeposit],
        request: request([source(1, USDC, '1', { usdValue: value })], {
          ...(thresholdBps ? { uneconomicThresholdBps: thresholdBps } : {}),
          target: {
            id: 't0',
            chainId: 1,
            address: NATIVE,
            allocationPercent: 100,
            targetToken: { address: NATIVE, decimals: 18, priceUSD: '3000' },
          },
        }),
      }).sources[0];
    expect(at('18.90')).toMatchObject({
      costShareBps: 5000,
      uneconomic: true,
      nativePriceSource: 'request_target',
    });
    expect(at('18.91')).toMatchObject({ costShareBps: 4998, uneconomic: false });
    expect(at('18.91', 4998)).toMatchObject({ uneconomic: true });
    expect(at('100', 10_000)).toMatchObject({ costShareBps: 945, uneconomic: false });
  });

  it('given no price in the request, when a provider valued a native slice, then that price is used and named', () => {
    const r = report({
      figures: [mainnetDeposit, figures(1, 1, 21_000n, 20n * GWEI, GWEI)],
      request: request([source(1, USDC, '3000000'), source(1, NATIVE, '500000000000000000')]),
      providerValues: [
        { sourceIndex: 0, provider: 'across', rawAmount: 3_000_000n, inputUsd: 2.99 },
        { sourceIndex: 1, provider: 'relay', rawAmount: 500_000_000_000_000_000n, inputUsd: 1600 },
      ],
    });
    expect(r.sources[0]).toMatchObject({
      nativePriceUsd: 3200,
      nativePriceSource: 'provider:relay',
      valueUsd: 2.99,
      valueSource: 'provider:across',
      costUsd: 10.08,
      uneconomic: true,
    });
  });

  it('given no price anywhere, when a token source has gas, then its USD figures and flag are null and totals say unknown', () => {
    const r = report({ figures: [mainnetDeposit], request: request([source(1, USDT, '3000000')]) });
    expect(r.sources[0]).toMatchObject({
      costNativeRaw: '3150000000000000',
      nativePriceUsd: null,
      costUsd: null,
      valueUsd: null,
      costShareBps: null,
      uneconomic: null,
    });
    expect(r.totals.costUsd).toBeNull();
    expect(uneconomicSourceIndexes(r)).toEqual([]);
  });

  it('given a native source without any price, then its share is still exact in wei', () => {
    // 0.00315 ETH of gas on 0.005 ETH: 6 300 bps.
    const r = report({
      figures: [mainnetDeposit],
      request: request([source(1, NATIVE, '5000000000000000')]),
    });
    expect(r.sources[0]).toMatchObject({ costShareBps: 6300, uneconomic: true, costUsd: null });
  });

  it('given an L1 data fee on 8453, then the native cost adds it to gas × (base fee + tip)', () => {
    const r = report({
      figures: [figures(0, 8453, 100_000n, GWEI / 100n, GWEI / 1000n, 2_000_000_000_000n)],
      request: request([source(8453, USDC, '1000000', { usdValue: '1' })]),
    });
    expect(r.sources[0]).toMatchObject({
      l1DataFeeWei: '2000000000000',
      costNativeRaw: (100_000n * 11_000_000n + 2_000_000_000_000n).toString(),
    });
  });

  it('given two sources on one chain, then the chain totals count their transactions, and one atomic batch pays the intrinsic gas once', () => {
    const approveAndDeposit = (index: number) =>
      ({
        ...figures(index, 8453, 0n, GWEI / 100n, GWEI / 1000n),
        transactions: [
          { kind: 'approve', to: USDC, gasUnits: '46000', gasMethod: 'simulated', l1DataFeeWei: '100' },
          { kind: 'deposit', to: USDC, gasUnits: '100000', gasMethod: 'simulated', l1DataFeeWei: '200' },
        ],
        gasUnits: 146_000n,
        l1DataFee: 300n,
        costNative: 146_000n * 11_000_000n + 300n,
      }) satisfies SourceGasFigures;
    const r = report({
      figures: [approveAndDeposit(0), approveAndDeposit(1)],
      request: request([source(8453, USDC, '1000000'), source(8453, USDT, '1000000')]),
    });
    expect(r.totals.perChain).toEqual([
      {
        chainId: 8453,
        nativeSymbol: 'ETH',
        transactionCount: 4,
        gasUnits: '292000',
        costNativeRaw: (292_000n * 11_000_000n + 600n).toString(),
        atomicBatchGasUnits: (292_000n - 3n * 21_000n).toString(),
        atomicBatchCostNativeRaw: ((292_000n - 63_000n) * 11_000_000n + 600n).toString(),
      },
    ]);
  });

  it('given a chain that could not be read, then the source is unavailable and never flagged', () => {
    const r = report({
      figures: [{ ...mainnetDeposit, status: 'unavailable', reason: 'chain 1 could not be read: X' }],
      request: request([source(1, USDC, '3000000', { usdValue: '3' })]),
    });
    expect(r.sources[0]).toMatchObject({
      status: 'unavailable',
      reason: 'chain 1 could not be read: X',
      gasUnits: null,
      costNativeRaw: null,
      uneconomic: null,
      valueUsd: 3,
    });
    expect(r.totals.costUsd).toBeNull();
  });

  it('given sources left out in a first pass, then they are listed excluded, in request order, and not in the totals', () => {
    const first = report({
      figures: [mainnetDeposit, figures(1, 42161, 300_000n, GWEI / 100n, 0n)],
      request: request(
        [
          source(1, USDC, '3000000', { usdValue: '3' }),
          source(42161, NATIVE, '1000000000000000000', { usdValue: '3000' }),
        ],
        { excludeUneconomicSources: true },
      ),
    });
    const left = first.sources.filter((s) => uneconomicSourceIndexes(first).includes(s.inputTokenIndex));
    const second = report({
      figures: [figures(1, 42161, 300_000n, GWEI / 100n, 0n)],
      request: request(
        [
          source(1, USDC, '3000000', { usdValue: '3' }),
          source(42161, NATIVE, '1000000000000000000', { usdValue: '3000' }),
        ],
        { excludeUneconomicSources: true },
      ),
      excluded: left,
    });
    expect(second.excludeUneconomicSources).toBe(true);
    expect(second.sources.map((s) => [s.inputTokenIndex, s.excluded, s.uneconomic])).toEqual([
      [0, true, true],
      [1, false, false],
    ]);
    expect(second.totals).toMatchObject({
      costUsd: 0.009,
      valueUsd: 3000,
      uneconomicSourceCount: 0,
      excludedSourceCount: 1,
    });
    expect(uneconomicSourceIndexes(second)).toEqual([]);
  });
});

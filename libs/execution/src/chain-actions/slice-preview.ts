import { type PerLegPreview } from '@svc/contract';
import { formatUnits } from 'viem';
import { usdShare } from './usd-share';

export interface PreviewSource {
  chainId: number;
  address: string;
  /** The request's raw amount of this source: a slice's USD value is its share of the source's. */
  amount: string;
  symbol?: string;
  decimals: number;
  usdValue?: string;
}

export interface PreviewTarget {
  targetId: string;
  symbol: string;
  decimals: number;
}

/** What one slice moves and what it is expected to deliver, for the partner's confirmation screen. */
export function slicePreview(slice: {
  legIndex: number;
  provider: string;
  source: PreviewSource;
  chainName: string;
  rawAmount: bigint;
  target: PreviewTarget;
  expectedOutputRaw: bigint;
}): PerLegPreview {
  const { source, target } = slice;
  return {
    legIndex: slice.legIndex,
    provider: slice.provider,
    outputSymbol: target.symbol,
    sourceTokens: [
      {
        chain: slice.chainName,
        amount: formatUnits(slice.rawAmount, source.decimals),
        symbol: source.symbol ?? '',
        address: source.address,
        rawAmount: slice.rawAmount.toString(),
        usdValue: usdShare(source.usdValue, slice.rawAmount, BigInt(source.amount)),
      },
    ],
    sourceChainId: source.chainId,
    outputTargetId: target.targetId,
    expectedOutputAmount: slice.expectedOutputRaw.toString(),
    expectedOutputFormatted: formatUnits(slice.expectedOutputRaw, target.decimals),
  };
}

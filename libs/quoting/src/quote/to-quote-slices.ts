import { type ProviderName, type QuoteRequest } from '@svc/contract';
import { type AllocationResult, type AllocationSlice } from '@svc/domain';
import { type QuoteSlice, type RoutableProvider } from '@svc/providers';
import { type Address } from 'viem';

/** One provider request per (route slice, considered provider): no-ops and same-chain slices need none. */
export function toQuoteSlices(
  request: QuoteRequest,
  allocation: AllocationResult,
  providers: readonly ProviderName[],
  fee: { bps: number; recipient: string | null },
): { provider: RoutableProvider; slice: QuoteSlice }[] {
  return allocation.legs.flatMap((leg) =>
    leg.slices
      .filter((s) => s.kind === 'route')
      .flatMap((s) =>
        providers.map((provider) => ({
          provider: provider as RoutableProvider,
          slice: toQuoteSlice(request, leg.target, s, fee),
        })),
      ),
  );
}

function toQuoteSlice(
  request: QuoteRequest,
  target: AllocationResult['legs'][number]['target'],
  slice: AllocationSlice,
  fee: { bps: number; recipient: string | null },
): QuoteSlice {
  return {
    sliceId: slice.sliceId,
    wallet: request.walletAddress as Address,
    recipient: request.recipient as Address,
    refundTo: request.walletAddress as Address,
    source: {
      chainId: slice.chainId,
      token: slice.address as Address,
      amount: slice.rawAmount,
      decimals: slice.decimals,
      ...(slice.symbol ? { symbol: slice.symbol } : {}),
    },
    target: {
      chainId: target.chainId,
      token: target.address as Address,
      decimals: target.decimals,
      ...(target.symbol ? { symbol: target.symbol } : {}),
    },
    slippageBps: request.slippageBps,
    appFeeBps: fee.bps,
    appFeeRecipient: fee.bps > 0 ? (fee.recipient as Address) : null,
  };
}

import { type QuoteRequest } from '@svc/contract';
import { type AllocationInput } from '@svc/domain';

/** The validated request as the allocation sees it (raw amounts become bigint here, once). */
export function toAllocationInput(request: QuoteRequest): AllocationInput {
  const targets = request.target ? [request.target] : request.targets;
  return {
    sources: request.sources.map((s, index) => ({
      index,
      chainId: s.chainId,
      address: s.address,
      amount: BigInt(s.amount),
      decimals: s.decimals,
      symbol: s.symbol ?? null,
      usdValue: s.usdValue ?? null,
    })),
    targets: targets.map((t) => ({
      id: t.id,
      chainId: t.chainId,
      address: t.address,
      decimals: t.targetToken.decimals,
      symbol: t.targetToken.symbol ?? null,
      allocationPercent: t.allocationPercent,
    })),
  };
}

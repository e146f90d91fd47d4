import { type QuoteRequest } from '@svc/contract';
import { type QuotedLegExecution } from '@svc/domain';
import { type Address } from 'viem';
import { type PreviewSource, type PreviewTarget } from './slice-preview';

export interface ChainActionsInput {
  wallet: Address;
  recipient: Address;
  /** The intent session's selected legs in plan order (IntentQuoted.data.execution): provider calls verbatim, no-op slices. */
  legs: readonly QuotedLegExecution[];
  /** Per leg (same order): target info for previews. */
  targets: readonly (PreviewTarget & { chainId: number; address: string })[];
  /** The request's sources (SourceInput fits), indexed by sourceIndex, for previews. */
  sources: readonly PreviewSource[];
  chainName(chainId: number): string;
  /** walletContext.walletCapabilities exactly as the partner sent it (opaque JSON), or undefined. */
  walletCapabilities: unknown;
}

/** ChainActionsInput.targets from the quote request: each leg's target, in the legs' order. */
export function legTargets(
  request: QuoteRequest,
  legs: readonly QuotedLegExecution[],
): ChainActionsInput['targets'] {
  const targets = request.target ? [request.target] : request.targets;
  return legs.map((leg) => {
    const t = targets.find((x) => x.id === leg.targetId)!;
    return {
      targetId: t.id,
      chainId: t.chainId,
      address: t.address,
      symbol: t.targetToken.symbol ?? '',
      decimals: t.targetToken.decimals,
    };
  });
}

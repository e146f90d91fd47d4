import { type ChainRegistry } from '@svc/chains';
import { type ChainAction } from '@svc/contract';
import { atomicSupported } from './atomic-supported';
import { type ChainActionsInput } from './chain-actions-input';
import { collectChainWork } from './collect-chain-work';
import { type DraftCall, storedCall } from './draft-call';
import { planApprovals } from './plan-approvals';
import { toChainAction, type QuoteDraft } from './to-chain-action';

/** One source chain's calls in execution order, grouped by quote, each quote with the source it moves. */
export interface PlannedChainCalls {
  chainId: number;
  quotes: (QuoteDraft & { sourceIndex: number })[];
}

/**
 * The chain actions of a prepare: per source chain (in order of first appearance in the legs), the approvals the
 * wallet still needs (built here, for the exact amounts), then each provider's other calls byte for byte, then
 * the transfers that deliver no-op slices to a recipient other than the wallet. Reads allowances (and may simulate an approval) on
 * each chain; throws InvalidQuotedExecutionError for stored data it must not build from, and ChainRpcError or
 * Erc20CallError when a chain cannot be read.
 */
export async function buildChainActions(
  input: ChainActionsInput,
  deps: { chains: ChainRegistry },
): Promise<ChainAction[]> {
  const planned = await Promise.all(
    collectChainWork(input).map((work) => planChainCalls(work, input.wallet, deps.chains)),
  );
  return planned.map(({ chainId, quotes }) =>
    toChainAction(chainId, quotes, atomicSupported(input.walletCapabilities, chainId)),
  );
}

/** The calls one source chain's chain action will hold, as buildChainActions lays them out (quote gas uses it). */
export async function planChainCalls(
  work: ReturnType<typeof collectChainWork>[number],
  wallet: ChainActionsInput['wallet'],
  chains: ChainRegistry,
): Promise<PlannedChainCalls> {
  const approvals = await planApprovals(
    chains.client(work.chainId),
    wallet,
    work.slices.map((slice) => ({ calls: slice.stored, amount: slice.amount })),
  );
  return chainCallsWith(work, approvals);
}

/** A chain's calls with the given approvals (per slice, placed before its own calls). */
export function chainCallsWith(
  work: ReturnType<typeof collectChainWork>[number],
  approvals: readonly DraftCall[][],
): PlannedChainCalls {
  return {
    chainId: work.chainId,
    quotes: [
      ...work.slices.map(({ provider, outputTargetId, preview, stored, sourceIndex }, i) => ({
        provider,
        outputTargetId,
        preview,
        sourceIndex,
        calls: [...approvals[i], ...stored.filter((call) => call.kind !== 'approve').map(storedCall)],
      })),
      ...work.noops,
    ],
  };
}

import { type ChainRegistry } from '@svc/chains';
import { type ChainAction } from '@svc/contract';
import { atomicSupported } from './atomic-supported';
import { type ChainActionsInput } from './chain-actions-input';
import { collectChainWork } from './collect-chain-work';
import { storedCall } from './draft-call';
import { planApprovals } from './plan-approvals';
import { toChainAction, type QuoteDraft } from './to-chain-action';

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
  return Promise.all(
    collectChainWork(input).map(async (work) => {
      const approvals = await planApprovals(
        deps.chains.client(work.chainId),
        input.wallet,
        work.slices.map((slice) => ({ calls: slice.stored, amount: slice.amount })),
      );
      const quotes: QuoteDraft[] = [
        ...work.slices.map(({ provider, outputTargetId, preview, stored }, i) => ({
          provider,
          outputTargetId,
          preview,
          calls: [...approvals[i], ...stored.filter((call) => call.kind !== 'approve').map(storedCall)],
        })),
        ...work.noops,
      ];
      return toChainAction(work.chainId, quotes, atomicSupported(input.walletCapabilities, work.chainId));
    }),
  );
}

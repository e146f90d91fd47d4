import { claimOwner, type ClaimRole, transactionClaimDecider, transactionClaimStreamId } from '@svc/domain';
import { type EventStore, handleCommand } from '@svc/event-store';

/**
 * Claims a transaction for `claim` unless someone already holds it; returns the owner that holds it now (`claim`'s
 * own owner when it won, or re-claimed what it already held). Of concurrent claims the first append wins; the others
 * read it on their retry and get its owner.
 */
export async function claimTransaction(
  store: EventStore,
  { chainId, txHash, claim, at }: { chainId: number; txHash: string; claim: ClaimRole; at: number },
): Promise<string> {
  const owner = claimOwner(claim);
  const { state } = await handleCommand(
    store,
    transactionClaimStreamId(chainId, txHash),
    transactionClaimDecider,
    { type: 'ClaimTransaction', data: { chainId, txHash, owner, at } },
    { stepId: `claim:${owner}`, once: true },
  );
  return state.owner ?? owner;
}

import {
  claimOwner,
  type ClaimRole,
  fillClaimOpen,
  fillClaimStreamId,
  transactionClaimDecider,
} from '@svc/domain';
import { type EventStore, handleCommand } from '@svc/event-store';
import { claimTransaction } from './claim-transaction';

/**
 * Claims one deposit's delivery in a fill transaction for a leg (issue 24 item 1): the claim is keyed by (chain,
 * transaction, deposit), so the legs a batched fill serves each hold their own. First the transaction's own claim
 * stream is marked `PER_DEPOSIT_FILLS_OWNER` (first come; kept as it is for source claims, which then find the
 * transaction taken). If that stream is held by a source claim, or by another leg's whole-transaction claim written
 * by a build from before per-deposit claims (that leg was settled with every transfer of the transaction), the
 * transaction is taken and that owner is returned; otherwise the deposit's stream is claimed, first come, for good.
 * Returns the owner that holds the delivery now: `claim`'s own owner when it is this leg's.
 */
export async function claimFill(
  store: EventStore,
  {
    chainId,
    txHash,
    depositKey,
    claim,
    at,
  }: { chainId: number; txHash: string; depositKey: string; claim: ClaimRole & { role: 'fill' }; at: number },
): Promise<string> {
  const txOwner = await claimTransaction(store, {
    chainId,
    txHash,
    claim: { role: 'fills' },
    at,
  });
  if (!fillClaimOpen(txOwner, claim)) return txOwner;
  const owner = claimOwner(claim);
  const { state } = await handleCommand(
    store,
    fillClaimStreamId(chainId, txHash, depositKey),
    transactionClaimDecider,
    { type: 'ClaimTransaction', data: { chainId, txHash, owner, at } },
    { stepId: `claim:${owner}`, once: true },
  );
  return state.owner ?? owner;
}

import { claimOwner, type ClaimRole, transactionClaimStreamId } from '@svc/domain';
import { eventIdFrom, type EventStore, WrongExpectedVersionError } from '@svc/event-store';

/**
 * Claims a transaction for `claim` unless someone already holds it; returns the owner that holds it now (`claim`'s
 * own owner when it won, or re-claimed what it already held). The first append wins (`no_stream`); the same owner
 * claiming again appends the same event id, which the store takes as a retry.
 */
export async function claimTransaction(
  store: EventStore,
  { chainId, txHash, claim, at }: { chainId: number; txHash: string; claim: ClaimRole; at: number },
): Promise<string> {
  const streamId = transactionClaimStreamId(chainId, txHash);
  const owner = claimOwner(claim);
  try {
    await store.append(
      streamId,
      [
        {
          id: eventIdFrom(streamId, owner),
          type: 'TransactionClaimed',
          data: { chainId, txHash: txHash.toLowerCase(), owner, at },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    return owner;
  } catch (err) {
    if (!(err instanceof WrongExpectedVersionError)) throw err;
    const [first] = await store.readStream(streamId, { maxCount: 1 });
    const held = (first?.data as { owner?: unknown } | undefined)?.owner;
    if (typeof held !== 'string') throw err;
    return held;
  }
}

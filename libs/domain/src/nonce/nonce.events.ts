import { storedEventShapes } from '@svc/contract';

type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * The events of one nonce, as the nonce decider folds them: the v2 nonce was bound to the canonical request tuple it
 * signed (by hash). Times are epoch ms. Stored in the partner's nonce buckets (NonceBucketEvent), many nonces to a
 * stream.
 */
export type NonceEvent = Event<'NonceUsed', { tupleHash: string; usedAt: number }>;

/** What a stored nonce event must hold for evolveNonce to fold it: a known type, plain data. */
export const nonceEventShapes = storedEventShapes<NonceEvent>({ NonceUsed: true });

/**
 * A NonceEvent as a nonce bucket stores it (`nonce-<partner digest>-<window>-<shard>`, see nonceBucketStreamId):
 * with the nonce it binds, since the stream holds every nonce of its partner, window and shard. The first NonceUsed
 * of a nonce in the buckets' global order is its binding (evolveNonce: the first binding holds).
 */
export type NonceBucketEvent = Event<'NonceUsed', { nonce: string; tupleHash: string; usedAt: number }>;

/** A stored bucket event folds when it names its nonce and tuple. */
export const nonceBucketEventShapes = storedEventShapes<NonceBucketEvent>({
  NonceUsed: (data) => typeof data.nonce === 'string' && typeof data.tupleHash === 'string',
});

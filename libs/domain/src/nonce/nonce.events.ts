type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * Events of `nonce-<partnerId>-<nonce>`: the v2 nonce was bound to the canonical request tuple it signed (by hash).
 * Times are epoch ms. The stream expires with the auth window; it keeps its revision, so an expired binding is
 * still known to have existed.
 */
export type NonceEvent = Event<'NonceUsed', { tupleHash: string; usedAt: number }>;

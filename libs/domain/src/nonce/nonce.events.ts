import { storedEventShapes } from '@svc/contract';

type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * Events of `nonce-<partnerId>-<nonce>`: the v2 nonce was bound to the canonical request tuple it signed (by hash).
 * Times are epoch ms. The stream expires with the auth window; it keeps its revision, so an expired binding is
 * still known to have existed.
 */
export type NonceEvent = Event<'NonceUsed', { tupleHash: string; usedAt: number }>;

/** What a stored nonce event must hold for evolveNonce to fold it: a known type, plain data. */
export const nonceEventShapes = storedEventShapes<NonceEvent>({ NonceUsed: true });

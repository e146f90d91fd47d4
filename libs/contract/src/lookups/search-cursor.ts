import { createHash } from 'node:crypto';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../http/opaque-cursor';
import { type AttemptSearchQuery, type SearchPosition } from './lookup.types';

type Filters = Omit<AttemptSearchQuery, 'limit' | 'after'>;

/** Binds a cursor to the filters it was issued for: another search cannot continue from it. */
function filtersDigest(filters: Filters): string {
  const { walletAddress, recipient, statuses, createdFrom, createdTo } = filters;
  const canonical = JSON.stringify([
    walletAddress,
    recipient,
    statuses === null ? null : [...statuses].sort(),
    createdFrom,
    createdTo,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** The opaque cursor of the page after `last`: base64url JSON, never parsed by partners. */
export function encodeSearchCursor(filters: Filters, last: SearchPosition): string {
  return encodeOpaqueCursor({ v: 1, t: last.createdAt, id: last.attemptId, f: filtersDigest(filters) });
}

/** The position a cursor names, or null when it is not one this service issued for these filters. */
export function decodeSearchCursor(filters: Filters, cursor: string): SearchPosition | null {
  const payload = decodeOpaqueCursor(cursor);
  if (payload === null) return null;
  const { v, t, id, f } = payload;
  if (v !== 1 || typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) return null;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
  if (f !== filtersDigest(filters)) return null;
  return { createdAt: t, attemptId: id };
}

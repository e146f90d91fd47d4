import { createHash } from 'node:crypto';
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
  const payload = { v: 1, t: last.createdAt, id: last.attemptId, f: filtersDigest(filters) };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one this service issued for these filters. */
export function decodeSearchCursor(filters: Filters, cursor: string): SearchPosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const { v, t, id, f } = payload as Record<string, unknown>;
  if (v !== 1 || typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) return null;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
  if (f !== filtersDigest(filters)) return null;
  return { createdAt: t, attemptId: id };
}

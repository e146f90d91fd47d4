import { createHash } from 'node:crypto';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../http/opaque-cursor';
import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

/**
 * Where a page of GET /webhooks/events reads on from, as its cursor names it (security review N-L2):
 * - `after-event`: after the partner's own event `eventId` (the last one a page listed);
 * - `start`: from the start of the partner's list (no page listed any event yet);
 * - `position`: after a global log position: the form issued before N-L2, still accepted (docs/webhooks.md: a
 *   cursor kept for a later poll keeps working). It selects only within the partner's own list; the answer's
 *   `nextCursor` is of the current form.
 */
export type WebhookCursor =
  { kind: 'after-event'; eventId: string } | { kind: 'start' } | { kind: 'position'; position: string };

/** An event-store position as every adapter writes it: `:`-separated unsigned integers. */
const POSITION = /^\d{1,20}(:\d{1,20})*$/;
const MAX_POSITION_LENGTH = 128;
const MAX_EVENT_ID_LENGTH = 128;

/**
 * Binds a cursor to its partner and event (as a search cursor is bound to its filters): another partner's cursor,
 * or one edited anywhere, does not match. Not a secret: the cursor names only what the partner was already shown.
 */
function cursorDigest(partnerId: string, eventId: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify(['webhook-cursor', partnerId, eventId]))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The opaque cursor of the partner's list after its event `lastEventId` (null: from the start): base64url JSON, never
 * parsed by partners. It holds no log position, so it tells nothing of other partners' activity (N-L2).
 */
export function encodeWebhookCursor(partnerId: string, lastEventId: string | null): string {
  return encodeOpaqueCursor(
    lastEventId === null
      ? { v: 2, d: cursorDigest(partnerId, null) }
      : { v: 2, e: lastEventId, d: cursorDigest(partnerId, lastEventId) },
  );
}

/**
 * What a cursor names for this partner, or null when it is not one this service issued to this partner: only the
 * exact bytes it would encode itself (a cursor edited in any character, even one base64url decodes alike, is
 * refused), with its partner's digest. Whether the event it names is the partner's is the list's to check.
 */
export function decodeWebhookCursor(partnerId: string, cursor: string): WebhookCursor | null {
  const payload = decodeOpaqueCursor(cursor, WEBHOOK_CONTROL_LIMITS.maxCursorLength);
  if (payload === null) return null;
  const { v, p, e } = payload;
  if (v === 1) {
    if (typeof p !== 'string' || p.length > MAX_POSITION_LENGTH || !POSITION.test(p)) return null;
    return encodeOpaqueCursor({ v: 1, p }) === cursor ? { kind: 'position', position: p } : null;
  }
  if (v !== 2) return null;
  if (e === undefined) return encodeWebhookCursor(partnerId, null) === cursor ? { kind: 'start' } : null;
  if (typeof e !== 'string' || e.length === 0 || e.length > MAX_EVENT_ID_LENGTH) return null;
  return encodeWebhookCursor(partnerId, e) === cursor ? { kind: 'after-event', eventId: e } : null;
}

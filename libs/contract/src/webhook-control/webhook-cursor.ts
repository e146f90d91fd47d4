import { decodeOpaqueCursor, encodeOpaqueCursor } from '../http/opaque-cursor';
import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

/** The opaque cursor after the event-store position `position`: base64url JSON, never parsed by partners. */
export function encodeWebhookCursor(position: string): string {
  return encodeOpaqueCursor({ v: 1, p: position });
}

/** The position a cursor names, or null when it is not a cursor this service issued. */
export function decodeWebhookCursor(cursor: string): string | null {
  const payload = decodeOpaqueCursor(cursor, WEBHOOK_CONTROL_LIMITS.maxCursorLength);
  if (payload === null) return null;
  const { v, p } = payload;
  if (v !== 1 || typeof p !== 'string' || p.length === 0 || p.length > 128) return null;
  return p;
}

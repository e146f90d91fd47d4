import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

/** The opaque cursor after the event-store position `position`: base64url JSON, never parsed by partners. */
export function encodeWebhookCursor(position: string): string {
  return Buffer.from(JSON.stringify({ v: 1, p: position }), 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not a cursor this service issued. */
export function decodeWebhookCursor(cursor: string): string | null {
  if (cursor.length > WEBHOOK_CONTROL_LIMITS.maxCursorLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const { v, p } = payload as Record<string, unknown>;
  if (v !== 1 || typeof p !== 'string' || p.length === 0 || p.length > 128) return null;
  return p;
}

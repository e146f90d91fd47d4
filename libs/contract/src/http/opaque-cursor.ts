/**
 * A pagination cursor partners pass back unread: base64url of a JSON object. Each kind of cursor checks the fields
 * of the object it gets back; this only carries it and refuses what cannot be one (null).
 */
export function encodeOpaqueCursor(payload: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

export function decodeOpaqueCursor(cursor: string, maxLength = 1024): Record<string, unknown> | null {
  if (cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? (payload as Record<string, unknown>)
    : null;
}

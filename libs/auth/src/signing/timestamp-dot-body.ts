/**
 * `<timestamp>.<raw body>` as bytes: the signed message of the legacy v1 request scheme and of every webhook.
 * Built from bytes so a body that is not valid UTF-8 is still signed exactly as transmitted.
 */
export function timestampDotBody(timestamp: string | number, rawBody: Buffer | string): Buffer {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return Buffer.concat([Buffer.from(`${String(timestamp)}.`, 'utf8'), body]);
}

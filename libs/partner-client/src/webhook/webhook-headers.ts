import { HEADER } from '../protocol/wire';

export type HeaderMap = Record<string, string | string[] | undefined>;

export interface WebhookHeaders {
  partnerId: string;
  timestamp: string;
  signature: string;
  eventId: string;
}

/**
 * The four headers verification needs, looked up case-insensitively (frameworks differ in how they pass names).
 * A header sent twice is refused rather than joined or picked: which copy was signed is unknowable.
 */
export function readWebhookHeaders(
  headers: HeaderMap,
): { ok: true; headers: WebhookHeaders } | { ok: false; reason: 'header_missing' | 'header_duplicated' } {
  const found: Partial<WebhookHeaders> = {};
  const names = {
    partnerId: HEADER.partnerId,
    timestamp: HEADER.timestamp,
    signature: HEADER.signature,
    eventId: HEADER.eventId,
  };
  for (const [field, name] of Object.entries(names) as [keyof WebhookHeaders, string][]) {
    const values = Object.entries(headers)
      .filter(([key, value]) => key.toLowerCase() === name && value !== undefined)
      .flatMap(([, value]) => (Array.isArray(value) ? value : [value ?? '']));
    if (values.length > 1) return { ok: false, reason: 'header_duplicated' };
    if (values.length === 0 || values[0] === '') return { ok: false, reason: 'header_missing' };
    found[field] = values[0];
  }
  return { ok: true, headers: found as WebhookHeaders };
}

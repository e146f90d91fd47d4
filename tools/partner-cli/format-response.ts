import { STATUS_CODES } from 'node:http';
import { type PartnerResponse } from '@svc/partner-client';

/** `HTTP 200 OK` and the body as pretty JSON (or as text when it is not JSON). */
export function formatResponse(response: PartnerResponse): string {
  const statusLine = `HTTP ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd();
  if (response.body === null) return `${statusLine}\n`;
  const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2);
  return `${statusLine}\n${body}\n`;
}

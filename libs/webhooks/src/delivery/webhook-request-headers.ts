import { signWebhook } from '@svc/auth';
import { HEADER } from '@svc/contract';

export interface WebhookHeaderInput {
  partnerId: string;
  secret: string;
  eventId: string;
  timestamp: number;
  body: Buffer;
}

/**
 * The headers of one delivery try. The signature covers `<X-Timestamp>.<raw body>`, so it is computed afresh for
 * every try: a redelivery hours later must still fall inside the receiver's five-minute window.
 */
export function webhookRequestHeaders(input: WebhookHeaderInput): Record<string, string> {
  const timestamp = String(input.timestamp);
  return {
    [wireName(HEADER.partnerId)]: input.partnerId,
    [wireName(HEADER.timestamp)]: timestamp,
    [wireName(HEADER.signature)]: signWebhook(input.secret, timestamp, input.body),
    [wireName(HEADER.eventId)]: input.eventId,
    [wireName(HEADER.apiVersion)]: '1',
    [wireName(HEADER.contentType)]: 'application/json',
    'Content-Length': String(input.body.length),
  };
}

// Header names are case-insensitive, but the spec spells them `X-Partner-Id`; some receivers compare naively.
function wireName(lowerCase: string): string {
  return lowerCase.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}

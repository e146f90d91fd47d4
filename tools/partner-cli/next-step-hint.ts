import { type PartnerResponse } from '@svc/partner-client';

/**
 * What to run next when the service refuses because a deadline passed (issue 25 item 3): the service's message names
 * the deadline; this names the command. A refusal that is not about a passed deadline gets no hint.
 */
export function nextStepHint(response: PartnerResponse): string | null {
  const body = response.body as { code?: unknown } | null;
  const code = typeof body === 'object' && body !== null ? body.code : undefined;
  switch (code) {
    case 'intent_session_expired':
    case 'quote_changed':
      return [
        'the quote can no longer be prepared. Next: a new quote with a new Idempotency-Key, then prepare it within',
        'its expiresAt:',
        '  npm run partner -- quote --file <your request.json> --fresh',
        'or, on the sandbox, the whole flow in one command:',
        '  npm run partner -- demo --file <your request.json>',
        '',
      ].join('\n');
    case 'evidence_deadline_passed':
      return [
        "the attempt's evidence deadline passed, so it expires without being executed: nothing will settle. Next:",
        'quote again and prepare the new session, and report its evidence before its evidenceDeadlineAt',
        '  npm run partner -- quote --file <your request.json> --fresh',
        'or, on the sandbox, the whole flow in one command:',
        '  npm run partner -- demo --file <your request.json>',
        '',
      ].join('\n');
    default:
      return null;
  }
}

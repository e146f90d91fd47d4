import { createHash } from 'node:crypto';
import { type SubmittedRequest } from '@svc/contract';

/**
 * Names one report: the partner's Idempotency-Key on this attempt, and what the report says. The same request again
 * (a retry whose reply was lost) is a replay that appends nothing; a key reused on another attempt, or with other
 * evidence once its retention ended, is another report, so new evidence is never dropped as a "replay".
 */
export function reportIdFor(
  partnerId: string,
  attemptId: string,
  key: string,
  body: SubmittedRequest,
): string {
  return createHash('sha256')
    .update(['report', partnerId, attemptId, key, JSON.stringify(body)].join('\n'), 'utf8')
    .digest('hex');
}

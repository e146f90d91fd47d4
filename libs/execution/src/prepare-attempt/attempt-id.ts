import { createHash, randomUUID } from 'node:crypto';

/**
 * The attempt id derives from the partner and its Idempotency-Key: a retry after a crash between the session's
 * IntentPrepared and the attempt's AttemptPrepared finds the attempt the first try claimed and completes it.
 */
export function attemptIdFor(partnerId: string, idempotencyKey: string | null): string {
  const seed = idempotencyKey === null ? randomUUID() : `attempt\n${partnerId}\n${idempotencyKey}`;
  return `at_${createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 32)}`;
}

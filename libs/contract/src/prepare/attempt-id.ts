import { createHash, randomUUID } from 'node:crypto';

/**
 * The attempt id derives from the partner, the intent session and the Idempotency-Key: a retry after a crash between
 * the session's IntentPrepared and the attempt's AttemptPrepared finds the attempt the first try claimed and completes
 * it, while the same key on another session (once the gateway no longer remembers the key) names another attempt
 * and can never hand back this one.
 * In the contract because both ends of `execution.prepare` derive it: execution names the attempt, and the gateway's
 * bus checks that a prepare reply names the attempt of the partner, session and key it asked for.
 */
export function attemptIdFor(
  partnerId: string,
  intentSessionId: string,
  idempotencyKey: string | null,
): string {
  const seed =
    idempotencyKey === null ? randomUUID() : `attempt\n${partnerId}\n${intentSessionId}\n${idempotencyKey}`;
  return `at_${createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 32)}`;
}

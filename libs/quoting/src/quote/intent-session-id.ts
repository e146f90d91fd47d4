import { createHash, randomUUID } from 'node:crypto';

/**
 * The session id is derived from the partner and its Idempotency-Key: a retry that reaches quoting again (the
 * gateway's lease ran out after a lost reply) finds the session the first try created instead of routing twice.
 */
export function intentSessionIdFor(partnerId: string, idempotencyKey: string | null): string {
  const seed = idempotencyKey === null ? randomUUID() : `${partnerId}\n${idempotencyKey}`;
  return `is_${createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 32)}`;
}

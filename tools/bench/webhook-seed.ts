import { type AttemptPreparedData } from '@svc/domain';
import { prepared } from '@svc/domain/attempt-fixture';

/**
 * The domain's attempt fixture (three slices into USDC on Base) under a new attempt id, partner and time, for the
 * webhook benchmark. Only the webhook payload (the attempt snapshot) reads it.
 */
export function benchPrepared(attemptId: string, partnerId: string, now: number): AttemptPreparedData {
  const intentSessionId = `is_${attemptId}`;
  return {
    ...prepared,
    attemptId,
    intentSessionId,
    partnerId,
    idempotencyKey: `prep-${attemptId}`,
    preparedAt: now,
    expiresAt: now + 30_000,
    evidenceDeadlineAt: now + 120_000,
    walletAuthorization: {
      ...prepared.walletAuthorization,
      message: {
        ...prepared.walletAuthorization.message,
        partnerId,
        intentSessionId,
        attemptId,
        expiresAt: Math.floor(now / 1000) + 86_400,
      },
    },
  };
}

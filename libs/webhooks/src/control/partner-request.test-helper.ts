import { randomUUID } from 'node:crypto';
import { type FeatureRequest } from '@svc/messaging';

/** A control-plane request of `partnerId` as the gateway hands it on (fresh request id and Idempotency-Key). */
export function partnerRequest<B>(
  partnerId: string,
  body: B,
  { resourceId = null, receivedAt = Date.now() }: { resourceId?: string | null; receivedAt?: number } = {},
): FeatureRequest<B> {
  return {
    partnerId,
    requestId: randomUUID(),
    idempotencyKey: randomUUID(),
    resourceId,
    replayOf: null,
    body,
    receivedAt,
  };
}

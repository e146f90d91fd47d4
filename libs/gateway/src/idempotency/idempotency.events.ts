import { type ResourceRef } from '@svc/messaging';

/** Events of `idempotency-<partnerId>-<sha256(key)>` (ARCHITECTURE.md "Streams"). */
export interface RequestFingerprint {
  method: string;
  path: string;
  bodySha256: string;
}

export type IdempotencyEvent =
  | { type: 'RequestAccepted'; data: RequestFingerprint & { acceptedAt: number; leaseExpiresAt: number } }
  | { type: 'RequestCompleted'; data: { resource: ResourceRef; httpStatus: number; completedAt: number } }
  /** The handler answered without creating anything (a 4xx/5xx): the key may run again, same bytes only. */
  | { type: 'RequestReleased'; data: { httpStatus: number; code: string; releasedAt: number } };

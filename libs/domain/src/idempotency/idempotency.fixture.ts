import { type IdempotencyCommand } from './idempotency.commands';
import { type IdempotencyEvent, type RequestFingerprint } from './idempotency.events';

/** Test fixture: one key, first run `req-1` accepted at 1 s with a 60 s lease. */
export const LEASE_MS = 60_000;
export const fp: RequestFingerprint = {
  method: 'POST',
  path: '/api/external/intents/quote',
  bodySha256: 'aa',
};
export const resource = { kind: 'intent_session', id: 'is_1' } as const;

// Events, as the stream holds them.
export const accepted = (requestId: string | undefined = 'req-1', at = 1000): IdempotencyEvent => ({
  type: 'RequestAccepted',
  data: {
    ...fp,
    ...(requestId === undefined ? {} : { requestId }),
    acceptedAt: at,
    leaseExpiresAt: at + LEASE_MS,
  },
});
export const completed = (at = 2000): IdempotencyEvent => ({
  type: 'RequestCompleted',
  data: { resource, httpStatus: 200, completedAt: at },
});
export const released = (at = 2000): IdempotencyEvent => ({
  type: 'RequestReleased',
  data: { httpStatus: 501, code: 'not_implemented', releasedAt: at },
});

// Commands.
export const begin = (
  now: number,
  requestId = 'req-2',
  fingerprint: RequestFingerprint = fp,
): Extract<IdempotencyCommand, { type: 'BeginRequest' }> => ({
  type: 'BeginRequest',
  data: { fingerprint, requestId, now, leaseMs: LEASE_MS },
});
export const complete = (requestId: string, now = 3000): IdempotencyCommand => ({
  type: 'CompleteRequest',
  data: { requestId, resource, httpStatus: 200, now },
});
export const release = (requestId: string, now = 3000): IdempotencyCommand => ({
  type: 'ReleaseRequest',
  data: { requestId, httpStatus: 501, code: 'not_implemented', now },
});

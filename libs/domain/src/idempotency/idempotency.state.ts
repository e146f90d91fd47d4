import {
  type IdempotencyEvent,
  type IdempotencyResource,
  type RequestFingerprint,
} from './idempotency.events';

export type IdempotencyState =
  | { status: 'new' }
  | { status: 'in_progress'; fingerprint: RequestFingerprint; requestId?: string; leaseExpiresAt: number }
  | {
      status: 'completed';
      fingerprint: RequestFingerprint;
      resource: IdempotencyResource;
      httpStatus: number;
    }
  | { status: 'released'; fingerprint: RequestFingerprint };

export const initialIdempotencyState: IdempotencyState = { status: 'new' };

export function evolveIdempotency(state: IdempotencyState, event: IdempotencyEvent): IdempotencyState {
  switch (event.type) {
    case 'RequestAccepted': {
      const { method, path, bodySha256, requestId, leaseExpiresAt } = event.data;
      return {
        status: 'in_progress',
        fingerprint: { method, path, bodySha256 },
        ...(requestId === undefined ? {} : { requestId }),
        leaseExpiresAt,
      };
    }
    case 'RequestCompleted':
      return state.status === 'new'
        ? state
        : {
            status: 'completed',
            fingerprint: state.fingerprint,
            resource: event.data.resource,
            httpStatus: event.data.httpStatus,
          };
    case 'RequestReleased':
      return state.status === 'new' ? state : { status: 'released', fingerprint: state.fingerprint };
    default:
      // A type this build does not know (a newer build's, during a rolling deploy) says nothing it can read.
      return state;
  }
}

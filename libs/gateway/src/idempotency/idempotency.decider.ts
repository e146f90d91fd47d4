import { type ResourceRef } from '@svc/messaging';
import { type IdempotencyEvent, type RequestFingerprint } from './idempotency.events';

export type IdempotencyState =
  | { status: 'new' }
  | { status: 'in_progress'; fingerprint: RequestFingerprint; leaseExpiresAt: number }
  | { status: 'completed'; fingerprint: RequestFingerprint; resource: ResourceRef; httpStatus: number }
  | { status: 'released'; fingerprint: RequestFingerprint };

export const initialIdempotencyState: IdempotencyState = { status: 'new' };

export function evolveIdempotency(state: IdempotencyState, event: IdempotencyEvent): IdempotencyState {
  switch (event.type) {
    case 'RequestAccepted': {
      const { method, path, bodySha256, leaseExpiresAt } = event.data;
      return { status: 'in_progress', fingerprint: { method, path, bodySha256 }, leaseExpiresAt };
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
  }
}

export type IdempotencyDecision =
  /** Run the operation: append the event, then call the handler. */
  | { kind: 'run'; event: IdempotencyEvent }
  /** Same key, same bytes, done before: answer with the current state of that resource. */
  | { kind: 'replay'; resource: ResourceRef }
  | { kind: 'reused' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

export interface BeginRequest {
  fingerprint: RequestFingerprint;
  now: number;
  leaseMs: number;
}

/** What a request carrying an already-seen (or new) Idempotency-Key may do. */
export function decideIdempotency(command: BeginRequest, state: IdempotencyState): IdempotencyDecision {
  const accept: IdempotencyDecision = {
    kind: 'run',
    event: {
      type: 'RequestAccepted',
      data: {
        ...command.fingerprint,
        acceptedAt: command.now,
        leaseExpiresAt: command.now + command.leaseMs,
      },
    },
  };
  if (state.status === 'new') return accept;
  if (!sameFingerprint(state.fingerprint, command.fingerprint)) return { kind: 'reused' };
  switch (state.status) {
    case 'completed':
      return { kind: 'replay', resource: state.resource };
    case 'released':
      return accept;
    case 'in_progress':
      // A lease that ran out means the first request's process died: the operation may run again.
      if (command.now >= state.leaseExpiresAt) return accept;
      return {
        kind: 'in_progress',
        retryAfterSeconds: Math.min(5, Math.max(1, Math.ceil((state.leaseExpiresAt - command.now) / 1000))),
      };
  }
}

function sameFingerprint(a: RequestFingerprint, b: RequestFingerprint): boolean {
  return a.method === b.method && a.path === b.path && a.bodySha256 === b.bodySha256;
}

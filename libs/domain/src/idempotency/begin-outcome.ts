import { type BeginRequest } from './idempotency.commands';
import { type IdempotencyResource, type RequestFingerprint } from './idempotency.events';
import { type IdempotencyState } from './idempotency.state';

/** What a request carrying an already-seen (or new) Idempotency-Key may do. */
export type IdempotencyOutcome =
  /** Run the operation: BeginRequest appends RequestAccepted, then the handler is called. */
  | { kind: 'run' }
  /** Same key, same bytes, done before: answer with the current state of that resource. */
  | { kind: 'replay'; resource: IdempotencyResource }
  /** Same key, other endpoint or bytes. */
  | { kind: 'reused' }
  /** Same key, same bytes, still running: retry after a few seconds. */
  | { kind: 'in_progress'; retryAfterSeconds: number };

/**
 * Says which outcome a BeginRequest has on the key's state: BeginRequest appends exactly when it is 'run', and the
 * ledger answers the others from this without anything appended.
 */
export function beginOutcome({ data }: BeginRequest, state: IdempotencyState): IdempotencyOutcome {
  if (state.status === 'new') return { kind: 'run' };
  if (!sameFingerprint(state.fingerprint, data.fingerprint)) return { kind: 'reused' };
  switch (state.status) {
    case 'completed':
      return { kind: 'replay', resource: state.resource };
    case 'released':
      return { kind: 'run' };
    case 'in_progress':
      // A lease that ran out means the first request's process died: the operation may run again.
      if (data.now >= state.leaseExpiresAt) return { kind: 'run' };
      return {
        kind: 'in_progress',
        retryAfterSeconds: Math.min(5, Math.max(1, Math.ceil((state.leaseExpiresAt - data.now) / 1000))),
      };
  }
}

function sameFingerprint(a: RequestFingerprint, b: RequestFingerprint): boolean {
  return a.method === b.method && a.path === b.path && a.bodySha256 === b.bodySha256;
}

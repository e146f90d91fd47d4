import { type PrepareRequest } from '@svc/contract';

/** Prepare an attempt on an intent session. Built by the bus handler; the use case never sees the envelope. */
export interface PrepareAttempt {
  partnerId: string;
  intentSessionId: string;
  /** With the partner and the session it names the attempt, so a retry completes the attempt the first try claimed. */
  idempotencyKey: string | null;
  body: PrepareRequest;
  /** Server time of the request, epoch ms. */
  now: number;
  /** The attempt an earlier call with this key created (a replay): answer its current state, never prepare again. */
  replayOf: string | null;
}

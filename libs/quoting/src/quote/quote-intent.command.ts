import { type QuoteRequest } from '@svc/contract';

/** Quote an intent for a partner. Built by the bus handler; the use case never sees the transport envelope. */
export interface QuoteIntent {
  partnerId: string;
  /** With the partner it names the intent session, so a retry that reaches quoting again finds the first one. */
  idempotencyKey: string | null;
  body: QuoteRequest;
  /** Server time of the request, epoch ms. */
  now: number;
  /** The session an earlier call with this key created (a replay): answer its current state, never quote again. */
  replayOf: string | null;
}

import { type SubmittedRequest } from '@svc/contract';

/** Record what the partner reports about an attempt. Built by the bus handler; the use case never sees the envelope. */
export interface SubmitEvidence {
  partnerId: string;
  attemptId: string;
  /** With the partner, the attempt and the body it names the report, so a retried report is recorded once. */
  idempotencyKey: string | null;
  /** The gateway's id of this request: names the report in place of a missing Idempotency-Key. */
  requestId: string;
  body: SubmittedRequest;
  /** Server time of the request, epoch ms. */
  now: number;
  /** The attempt an earlier call with this key reported on (a replay): answer its snapshot, record nothing. */
  replayOf: string | null;
}

import { storedEventShapes } from '@svc/contract';

/** What makes two requests with one Idempotency-Key the same request: endpoint and body bytes. */
export interface RequestFingerprint {
  method: string;
  path: string;
  bodySha256: string;
}

/**
 * What a completed request made, by kind and id. Declared here rather than taken from the bus's envelopes: the
 * domain imports only the contract, and a replay needs no more than this to answer with the resource's state.
 */
export interface IdempotencyResource {
  kind: 'intent_session' | 'attempt' | 'webhook_recovery';
  id: string;
}

export type RequestAcceptedData = RequestFingerprint & {
  /**
   * The run that holds the key until it completes, releases or its lease ends. Absent on events stored before runs
   * were named: such an acceptance is held by whichever run settles it.
   */
  requestId?: string;
  acceptedAt: number;
  leaseExpiresAt: number;
};

type Event<Type extends string, Data> = { type: Type; data: Data };

/** Events of `idempotency-<partnerId>-<sha256(key)>` (ARCHITECTURE.md "Streams"). Times are epoch ms. */
export type IdempotencyEvent =
  | Event<'RequestAccepted', RequestAcceptedData>
  | Event<'RequestCompleted', { resource: IdempotencyResource; httpStatus: number; completedAt: number }>
  /** The handler answered without creating anything (a 4xx/5xx): the key may run again, same bytes only. */
  | Event<'RequestReleased', { httpStatus: number; code: string; releasedAt: number }>;

/** What a stored idempotency event must hold for evolveIdempotency to fold it: a known type, plain data. */
export const idempotencyEventShapes = storedEventShapes<IdempotencyEvent>({
  RequestAccepted: true,
  RequestCompleted: true,
  RequestReleased: true,
});

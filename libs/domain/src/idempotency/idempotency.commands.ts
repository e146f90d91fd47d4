import { type IdempotencyResource, type RequestFingerprint } from './idempotency.events';

type Command<Type extends string, Data> = { type: Type; data: Data };

/**
 * A request carrying the key arrived. `requestId` names this run of it; the key is held until `now + leaseMs`
 * unless the run completes or releases it sooner.
 */
export type BeginRequest = Command<
  'BeginRequest',
  { fingerprint: RequestFingerprint; requestId: string; now: number; leaseMs: number }
>;

/** The run made a resource: a later request with the same bytes replays it. */
export type CompleteRequest = Command<
  'CompleteRequest',
  { requestId: string; resource: IdempotencyResource; httpStatus: number; now: number }
>;

/** The run made nothing (it answered an error): the key may run again. */
export type ReleaseRequest = Command<
  'ReleaseRequest',
  { requestId: string; httpStatus: number; code: string; now: number }
>;

export type IdempotencyCommand = BeginRequest | CompleteRequest | ReleaseRequest;

type Command<Type extends string, Data> = { type: Type; data: Data };

/** How a finished try went for the breaker: the endpoint answered, or it was not available. */
export type EndpointTryOutcome = 'answered' | 'unavailable';

/** A due webhook of the partner is about to be sent. */
export type StartEndpointTry = Command<'StartEndpointTry', { now: number }>;

/** A try of the partner's endpoint finished. */
export type RecordEndpointTry = Command<'RecordEndpointTry', { now: number; outcome: EndpointTryOutcome }>;

/** A try that was let through sent nothing after all (its webhook was no longer due, or the shard moved). */
export type WithdrawEndpointTry = Command<'WithdrawEndpointTry', { now: number }>;

export type EndpointBreakerCommand = StartEndpointTry | RecordEndpointTry | WithdrawEndpointTry;

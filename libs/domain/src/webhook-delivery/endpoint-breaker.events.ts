type Event<Type extends string, Data> = { type: Type; data: Data };

/**
 * What the breaker of a partner's endpoint records. Kept in the dispatcher's memory only, never appended to a
 * stream: every try itself is recorded on the attempt's webhook stream.
 */
export type EndpointBreakerEvent =
  /** A try may go out; `trial`: the one try of a breaker whose cool-down is over. */
  | Event<'EndpointTryStarted', { at: number; trial: boolean }>
  /** The endpoint answered (any HTTP status but 5xx and 429): the breaker is closed, the count starts over. */
  | Event<'EndpointAnswered', { at: number }>
  /** A try found the endpoint unavailable; `failures` counts them in a row, this one included. */
  | Event<'EndpointFailed', { at: number; failures: number }>
  /** No try before `retryAt`. */
  | Event<'EndpointOpened', { at: number; retryAt: number }>
  /** The trial sent nothing: another due webhook may be the trial, from `at`. */
  | Event<'EndpointTrialWithdrawn', { at: number }>;

/** When a partner's endpoint counts as down, and how long it is left alone then. */
export interface BreakerPolicy {
  /** Consecutive unavailable tries (time-outs, connection errors, 5xx, 429) that open the breaker. */
  failureThreshold: number;
  /** How long an open breaker lets no try through, from the failure that opened it. */
  coolDownMs: number;
}

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = { failureThreshold: 5, coolDownMs: 30_000 };

/**
 * The circuit breaker of one partner's callback URL. `failures` counts consecutive unavailable tries. Closed: every
 * due webhook is tried. Open: none until `retryAt`, then one trial. Half-open: that trial is out; its outcome closes
 * the breaker again or reopens it.
 */
export type EndpointBreakerState =
  | { status: 'closed'; failures: number }
  | { status: 'open'; failures: number; retryAt: number }
  | { status: 'half_open'; failures: number };

export const initialEndpointBreakerState: EndpointBreakerState = { status: 'closed', failures: 0 };

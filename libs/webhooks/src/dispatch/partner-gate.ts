import {
  type BreakerPolicy,
  type EndpointBreakerEvent,
  endpointBreakerDecider,
  type EndpointBreakerState,
  type EndpointTryOutcome,
} from '@svc/domain';

/** Whether a try may go out now: `go`, or `held` while the partner's breaker lets no try through. */
export type GateDecision = 'go' | 'held';

/**
 * The tries of one partner's endpoint: at most `limit` in flight, further ones waiting oldest first (by when their
 * webhook became due), and the partner's circuit breaker (the domain's endpointBreakerDecider) asked before each one
 * goes out. Nothing here is shared between partners, so one partner's slow or failing endpoint never holds another
 * partner's tries.
 */
export class PartnerGate {
  private state: EndpointBreakerState;
  private inFlight = 0;
  /** Sorted by `since`, then by arrival. */
  private readonly waiting: { since: number; resume: () => void }[] = [];
  private readonly breaker: ReturnType<typeof endpointBreakerDecider>;

  constructor(
    policy: BreakerPolicy,
    private readonly limit: number,
  ) {
    this.breaker = endpointBreakerDecider(policy);
    this.state = this.breaker.initialState;
  }

  /** No try may start at `now`: the breaker is open and cooling down, or its one trial is out. */
  holds(now: number): boolean {
    return this.state.status === 'half_open' || (this.state.status === 'open' && now < this.state.retryAt);
  }

  get open(): boolean {
    return this.state.status !== 'closed';
  }

  /** A try must wait for a slot before it may go out. */
  get full(): boolean {
    return this.inFlight >= this.limit || this.waiting.length > 0;
  }

  /**
   * Waits for a slot (the webhook due `since` the longest goes first), then asks the breaker at `now()`. After `go`
   * the caller tries once and must call `leave` whatever happens; after `held` it holds no slot.
   */
  async enter(now: () => number, since: number): Promise<GateDecision> {
    if (this.full) await new Promise<void>((resume) => this.wait(since, resume));
    else this.inFlight++;
    const started = this.breaker.decide({ type: 'StartEndpointTry', data: { now: now() } }, this.state);
    if (started.length === 0) {
      this.inFlight--;
      this.handOn();
      return 'held';
    }
    this.apply(started);
    return 'go';
  }

  /** A try that went out is over; `outcome` null: it says nothing about the endpoint (nothing was sent). */
  leave(outcome: EndpointTryOutcome | null, now: number): EndpointBreakerEvent[] {
    this.inFlight--;
    const events = this.breaker.decide(
      outcome === null
        ? { type: 'WithdrawEndpointTry', data: { now } }
        : { type: 'RecordEndpointTry', data: { now, outcome } },
      this.state,
    );
    this.apply(events);
    this.handOn();
    return events;
  }

  /** Free slots go to the waiting tries, reserved for them before they resume (a held one hands its slot on). */
  private handOn(): void {
    while (this.inFlight < this.limit && this.waiting.length > 0) {
      this.inFlight++;
      this.waiting.shift()?.resume();
    }
  }

  private wait(since: number, resume: () => void): void {
    let at = this.waiting.length;
    while (at > 0 && this.waiting[at - 1].since > since) at--;
    this.waiting.splice(at, 0, { since, resume });
  }

  private apply(events: EndpointBreakerEvent[]): void {
    this.state = events.reduce((state, event) => this.breaker.evolve(state, event), this.state);
  }
}

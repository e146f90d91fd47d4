import {
  type BreakerPolicy,
  deliveryStats,
  type DueWebhook,
  type EndpointBreakerEvent,
  type EndpointTryOutcome,
  nextDue,
  queueHead,
  type WebhookDeliveryState,
} from '@svc/domain';
import { errorMessage, type WorkerLogger } from '@svc/leases';
import { type PartnerDirectory } from '@svc/platform';
import { KnownPartners } from './known-partners';
import { PartnerGate } from './partner-gate';
import { BACKLOG_AGE_MS } from './partner-turns';
import { tryWebhookTraced } from './traced-try';
import { type TryWebhookDeps } from './try-webhook';
import { loadWebhooks } from './webhook-stream';

export interface DeliveryRunsDeps extends TryWebhookDeps {
  partners: PartnerDirectory;
  /** Tries in flight per partner. */
  concurrency: number;
  breaker: BreakerPolicy;
  /** Whether this instance delivers the attempt (holds its shard), asked again right before each POST. */
  owns: (attemptId: string) => boolean;
  /** The attempt has no webhook pending any more. */
  settled: (attemptId: string) => void;
  logger: WorkerLogger;
}

/**
 * The delivery runs of one dispatcher: at most one per attempt, each trying the attempt's webhooks in order while
 * they are due and go through. No run waits for another attempt's; the only limits are per partner (a PartnerGate:
 * `concurrency` tries in flight and the endpoint's circuit breaker), so a partner whose endpoint hangs or fails
 * delays only its own webhooks. The breakers live in this process's memory. With `turns`, each try's store work
 * (reading the queue and building the body, then recording the try) takes turns with other partners' (PartnerTurns),
 * so a partner with a backlog takes no more of this process than any other partner that has webhooks waiting.
 */
export class DeliveryRuns {
  private readonly running = new Map<string, Promise<void>>();
  /** Webhooks pending per attempt, as last read (the queue-depth gauge). */
  private readonly pending = new Map<string, number>();
  /** Attempts whose head is not due before this time, as last read; forgotten when their stream changes. */
  private readonly notBefore = new Map<string, number>();
  readonly attemptPartners = new KnownPartners();
  private readonly gates = new Map<string, PartnerGate>();
  /** Per partner, the attempts whose run its breaker held: started again as soon as it lets tries through. */
  private readonly held = new Map<string, Set<string>>();
  private stopping = false;

  constructor(private readonly deps: DeliveryRunsDeps) {}

  /**
   * Starts the attempt's run unless one runs, another instance delivers it, or nothing can be due: its head waits
   * for a retry, or its partner's breaker holds every try. `dueSince`: since when its head is due (oldest go first);
   * `queue`: the attempt's webhook queue as just written, when the caller has it; `backlog`: its webhooks are backlog
   * (a recovery's) whatever their age, so is reading its queue (PartnerTurns).
   */
  kick(attemptId: string, dueSince?: number, queue?: WebhookDeliveryState, backlog = false): void {
    if (this.stopping || this.running.has(attemptId) || !this.deps.owns(attemptId)) return;
    const now = this.deps.clock.now();
    const notBefore = this.notBefore.get(attemptId);
    if (notBefore !== undefined && notBefore > now) return;
    const partnerId = this.attemptPartners.of(attemptId);
    if (partnerId !== undefined && this.gates.get(partnerId)?.holds(now)) {
      this.heldBy(partnerId).add(attemptId);
      return;
    }
    const run = this.deliver(attemptId, dueSince ?? notBefore ?? now, queue ?? null, backlog)
      .catch((err: unknown) =>
        this.deps.logger.warn({ msg: 'webhook delivery failed', attemptId, error: errorMessage(err) }),
      )
      .finally(() => this.running.delete(attemptId));
    this.running.set(attemptId, run);
  }

  /** The attempt's webhook stream changed (a redelivery, a webhook queued elsewhere): its head may be due. */
  changed(attemptId: string): void {
    this.notBefore.delete(attemptId);
  }

  /** Resolves once no run is in flight. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** At shutdown: no try starts any more (the queued ones wait for the next holder); those in flight finish. */
  stop(): Promise<void> {
    this.stopping = true;
    return this.idle();
  }

  /** Webhooks queued or retrying, over the attempts read so far. */
  get depth(): number {
    let depth = 0;
    for (const count of this.pending.values()) depth += count;
    return depth;
  }

  /** Partners whose breaker is not closed. */
  get endpointsOpen(): number {
    let open = 0;
    for (const gate of this.gates.values()) if (gate.open) open++;
    return open;
  }

  /**
   * Tries the attempt's webhooks in order while they are due and go through. Each try first waits for its partner's
   * gate; the queue is read after it (or known from the try just recorded), so the head sent is the current one.
   */
  private async deliver(
    attemptId: string,
    dueSince: number,
    queue: WebhookDeliveryState | null,
    backlog: boolean,
  ): Promise<void> {
    const partnerId = this.attemptPartners.of(attemptId) ?? (await this.partnerOfQueue(attemptId));
    if (partnerId === undefined) return;
    const gate = this.gateOf(partnerId);
    let known = queue;
    for (let since = dueSince; ;) {
      // A run that waits for a slot takes the queue again after it (the dispatcher's copy, or a read where it has
      // none): the head may have changed meanwhile (a webhook queued, a redelivery, which drops the copy).
      if (gate.full) known = null;
      if ((await gate.enter(() => this.deps.clock.now(), since)) === 'held') {
        this.heldBy(partnerId).add(attemptId);
        return;
      }
      let endpoint: EndpointTryOutcome | null = null;
      try {
        const old = backlog || this.deps.clock.now() - since > BACKLOG_AGE_MS;
        const queue = known ?? (await this.inTurn(partnerId, () => this.queueOf(attemptId), old));
        const due = this.dueHead(attemptId, queue);
        // The shard may have moved while this run waited: its new holder delivers from here.
        if (due === null || this.stopping || !this.deps.owns(attemptId)) return;
        const tried = await tryWebhookTraced(this.deps, attemptId, due, this.deps.partners.get(partnerId));
        endpoint = tried.endpoint;
        if (tried.recorded === 'failed') {
          if (tried.nextAttemptAt !== null) this.notBefore.set(attemptId, tried.nextAttemptAt);
          return;
        }
        const { eventId, event } = due;
        this.deps.logger.log({ msg: `webhook ${tried.recorded}`, attemptId, eventId, event });
        const next = this.dueHead(attemptId, tried.state);
        if (next === null) return;
        known = tried.state;
        since = next.occurredAt;
      } finally {
        this.report(partnerId, gate.leave(endpoint, this.deps.clock.now()));
      }
    }
  }

  private inTurn<T>(partnerId: string, step: () => Promise<T>, backlog: boolean): Promise<T> {
    return this.deps.turns ? this.deps.turns.run(partnerId, step, { backlog }) : step();
  }

  /** The head webhook if it is due now; otherwise notes when it will be, or settles an attempt with none pending. */
  private dueHead(attemptId: string, state: WebhookDeliveryState): DueWebhook | null {
    const { counts } = deliveryStats(state);
    const pending = counts.queued + counts.retrying;
    if (state.status !== 'active' || pending === 0) {
      this.settle(attemptId);
      return null;
    }
    this.pending.set(attemptId, pending);
    this.attemptPartners.remember(attemptId, state.partnerId);
    const due = nextDue(state, this.deps.clock.now());
    if (due === null) this.notBefore.set(attemptId, queueHead(state)?.nextAttemptAt ?? 0);
    return due;
  }

  /** The attempt's webhook queue: as this dispatcher last wrote it, else read. */
  private async queueOf(attemptId: string): Promise<WebhookDeliveryState> {
    const known = this.deps.queues?.of(attemptId);
    if (known !== undefined) return known.state;
    const read = await loadWebhooks(this.deps.store, attemptId);
    this.deps.queues?.remember(attemptId, read);
    return read.state;
  }

  /** The partner named by the attempt's webhook queue (after a restart, before anything was delivered). */
  private async partnerOfQueue(attemptId: string): Promise<string | undefined> {
    const state = await this.queueOf(attemptId);
    if (state.status === 'empty') {
      this.settle(attemptId);
      return undefined;
    }
    this.attemptPartners.remember(attemptId, state.partnerId);
    return state.partnerId;
  }

  private gateOf(partnerId: string): PartnerGate {
    let gate = this.gates.get(partnerId);
    if (gate === undefined) {
      gate = new PartnerGate(this.deps.breaker, this.deps.concurrency);
      this.gates.set(partnerId, gate);
    }
    return gate;
  }

  private heldBy(partnerId: string): Set<string> {
    let held = this.held.get(partnerId);
    if (held === undefined) {
      held = new Set();
      this.held.set(partnerId, held);
    }
    return held;
  }

  private settle(attemptId: string): void {
    this.pending.delete(attemptId);
    this.notBefore.delete(attemptId);
    this.deps.settled(attemptId);
  }

  private report(partnerId: string, events: EndpointBreakerEvent[]): void {
    for (const event of events) {
      if (event.type === 'EndpointOpened') {
        const retryAt = new Date(event.data.retryAt).toISOString();
        const msg = 'webhook endpoint unavailable: its webhooks wait for the cool-down';
        this.deps.logger.warn({ msg, partnerId, retryAt });
      } else if (event.type === 'EndpointAnswered') {
        this.deps.logger.log({ msg: 'webhook endpoint answers again', partnerId });
      }
      // Closed again, or the trial went unused: the held attempts go now rather than at the next pass.
      if (event.type === 'EndpointAnswered' || event.type === 'EndpointTrialWithdrawn') {
        const held = [...this.heldBy(partnerId)];
        this.held.delete(partnerId);
        for (const attemptId of held) this.kick(attemptId);
      }
    }
  }
}

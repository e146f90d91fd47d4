import { performance } from 'node:perf_hooks';

/** What a step is for: a live webhook (`live`), or backlog (old events: a recovery, redeliveries, late retries). */
export interface TurnOptions {
  /** Before the partner's other steps of its class waiting (a request the partner waits for). */
  ahead?: boolean;
  /** Backlog: it runs when no live step waits, and takes at most about half the time while live work goes on. */
  backlog?: boolean;
}

/** A webhook of an event that occurred longer ago than this is backlog (a redelivery, a late retry). */
export const BACKLOG_AGE_MS = 60_000;
/** While a live step was asked for this recently, backlog is paced. */
export const LIVE_WORK_QUIET_MS = 100;
/** While paced, after a backlog step of d ms the next one waits BACKLOG_PAUSE_RATIO × d. */
export const BACKLOG_PAUSE_RATIO = 1;

/** One class of a partner's steps waiting: those asked `ahead` first, each list first in, first out. */
interface Lane {
  ahead: (() => void)[];
  behind: (() => void)[];
}

interface Waiting {
  live: Lane;
  backlog: Lane;
}

const lane = (): Lane => ({ ahead: [], behind: [] });
const size = (l: Lane) => l.ahead.length + l.behind.length;

/**
 * The event-store work of this process's webhook deliveries and recoveries, taken in turns: one step at a time, the
 * partners with steps waiting served round robin (each partner's own steps first in, first out), and the event loop
 * let through before every step. A step is what runs between two waits on the network: reading an attempt's queue
 * and building a body, recording a try, queueing a webhook, recovering one attempt.
 *
 * Why: on SQLite a step blocks the thread (a durable append is an fsync), and nothing else limits how much of it one
 * partner takes. A partner with thousands of webhooks to send (a recovery) would have its tries' steps run back to
 * back, every other partner's steps queued behind them. Taken in turns, another partner's step waits for at most one
 * step of each partner ahead of it; a partner alone still gets every turn. Nothing here waits on a partner's
 * endpoint: a slow or hanging one holds no turn.
 *
 * Two classes: live steps (webhooks of events that just happened) go before backlog steps (a recovery, and tries of
 * events that occurred long ago), whoever's they are, and while live work goes on (a live step was asked for within
 * LIVE_WORK_QUIET_MS) backlog steps are paced, a pause as long as the step after each one, so that the thread stays
 * free for the live webhooks' own network and parsing work too. With no live work, backlog runs at full speed.
 */
export class PartnerTurns {
  private running = 0;
  /** Each partner's steps waiting, per class, `ahead` ones first (a partner is here while it has some). */
  private readonly waiting = new Map<string, Waiting>();
  /** When each partner last had a turn (a count of turns): the partner waiting whose turn is longest ago goes next. */
  private readonly lastTurn = new Map<string, number>();
  private turns = 0;
  /** Steps waiting, all partners. */
  private count = 0;
  /** Turns handed on whose step has not started yet (the event loop runs first). */
  private starting = 0;
  /** When a live step was last asked for (performance.now()). */
  private liveAt = Number.NEGATIVE_INFINITY;
  /** While paced, the next backlog step starts no earlier than this. */
  private backlogFrom = 0;
  private pacing: NodeJS.Timeout | undefined;

  /** `width`: steps that may run at once (1: one at a time, what a store that blocks the thread gains from). */
  constructor(private readonly width = 1) {}

  /** Runs `step` in one of the partner's turns; the turn ends when it settles. */
  async run<T>(partnerId: string, step: () => Promise<T>, options: TurnOptions = {}): Promise<T> {
    const backlog = options.backlog === true;
    await new Promise<void>((resume) => {
      let steps = this.waiting.get(partnerId);
      if (steps === undefined) {
        steps = { live: lane(), backlog: lane() };
        this.waiting.set(partnerId, steps);
      }
      const queue = backlog ? steps.backlog : steps.live;
      (options.ahead ? queue.ahead : queue.behind).push(resume);
      if (!backlog) this.liveAt = performance.now();
      this.count++;
      this.handOn();
    });
    const started = performance.now();
    try {
      return await step();
    } finally {
      this.running--;
      if (backlog) this.backlogFrom = performance.now() + BACKLOG_PAUSE_RATIO * (performance.now() - started);
      this.handOn();
    }
  }

  /** Steps waiting, all partners (metrics, tests). */
  get queued(): number {
    return this.count;
  }

  /**
   * Lets the event loop run, then gives each free turn to the partner waiting whose last turn is longest ago (one
   * that never had one first; ties in the order they came), live steps before backlog: partners with steps waiting
   * take one step each in turn, and one that comes while another works through a backlog goes next. Who goes is
   * chosen when the turn starts, not when the previous one ended, so a step asked for meanwhile is among the
   * candidates.
   */
  private handOn(): void {
    while (this.running + this.starting < this.width && this.count > this.starting) {
      this.starting++;
      setImmediate(() => this.start());
    }
  }

  private start(): void {
    this.starting--;
    const live = this.next('live');
    if (live !== undefined) return this.grant(live, 'live');
    const backlog = this.next('backlog');
    if (backlog === undefined) return;
    const now = performance.now();
    const paced = now - this.liveAt < LIVE_WORK_QUIET_MS && now < this.backlogFrom;
    if (!paced) return this.grant(backlog, 'backlog');
    // Live work goes on: the backlog waits its pause (a live step asked for meanwhile starts at once).
    this.pacing ??= setTimeout(() => {
      this.pacing = undefined;
      this.handOn();
    }, this.backlogFrom - now);
  }

  /** The partner with a step of this class waiting whose last turn is longest ago (ties: the one that came first). */
  private next(kind: keyof Waiting): string | undefined {
    let next: string | undefined;
    for (const [partnerId, steps] of this.waiting)
      if (size(steps[kind]) > 0 && (next === undefined || this.lastOf(partnerId) < this.lastOf(next)))
        next = partnerId;
    return next;
  }

  private grant(partnerId: string, kind: keyof Waiting): void {
    const steps = this.waiting.get(partnerId)!;
    const resume = steps[kind].ahead.shift() ?? steps[kind].behind.shift()!;
    if (size(steps.live) + size(steps.backlog) === 0) this.waiting.delete(partnerId);
    this.count--;
    this.lastTurn.set(partnerId, ++this.turns);
    this.running++;
    resume();
  }

  private lastOf(partnerId: string): number {
    return this.lastTurn.get(partnerId) ?? 0;
  }
}

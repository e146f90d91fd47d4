/**
 * The event-store work of this process's webhook deliveries and recoveries, taken in turns: one step at a time, the
 * partners with steps waiting served round robin (each partner's own steps first in, first out), and the event loop
 * let through before every step. A step is what runs between two waits on the network: reading an attempt's queue
 * and building a body, recording a try, queueing a webhook, recovering one attempt.
 *
 * Why: on SQLite a step blocks the thread (a durable append is an fsync), and nothing else limits how much of it one
 * partner takes. A partner with thousands of webhooks to send (a recovery) would have its tries' steps run back to
 * back, every other partner's steps queued behind them. Taken in turns, another partner's step waits for at most one
 * step of each partner ahead of it, so a backlog costs others a few milliseconds, not its length; a partner alone
 * still gets every turn. Nothing here waits on a partner's endpoint: a slow or hanging one holds no turn.
 */
export class PartnerTurns {
  private running = 0;
  /** Each partner's steps waiting, first in, first out, those asked `ahead` first (a partner is here while it has some). */
  private readonly waiting = new Map<string, { ahead: (() => void)[]; behind: (() => void)[] }>();
  /** When each partner last had a turn (a count of turns): the partner waiting whose turn is longest ago goes next. */
  private readonly lastTurn = new Map<string, number>();
  private turns = 0;
  /** Steps waiting, all partners. */
  private count = 0;
  /** Turns handed on whose step has not started yet (the event loop runs first). */
  private starting = 0;

  /** `width`: steps that may run at once (1: one at a time, what a store that blocks the thread gains from). */
  constructor(private readonly width = 1) {}

  /**
   * Runs `step` in one of the partner's turns; the turn ends when it settles. `ahead`: before the partner's other
   * steps waiting (a request the partner waits for, ahead of its own deliveries), still in the partner's turns.
   */
  async run<T>(partnerId: string, step: () => Promise<T>, ahead = false): Promise<T> {
    await new Promise<void>((resume) => {
      let steps = this.waiting.get(partnerId);
      if (steps === undefined) {
        steps = { ahead: [], behind: [] };
        this.waiting.set(partnerId, steps);
      }
      (ahead ? steps.ahead : steps.behind).push(resume);
      this.count++;
      this.handOn();
    });
    try {
      return await step();
    } finally {
      this.running--;
      this.handOn();
    }
  }

  /** Steps waiting, all partners (metrics, tests). */
  get queued(): number {
    return this.count;
  }

  /**
   * Lets the event loop run, then gives each free turn to the partner waiting whose last turn is longest ago (one
   * that never had one first; ties in the order they came): partners with steps waiting take one step each in turn,
   * and one that comes while another works through a backlog goes next. Who goes is chosen when the turn starts, not
   * when the previous one ended, so a step asked for meanwhile (its I/O just came in) is among the candidates.
   */
  private handOn(): void {
    while (this.running + this.starting < this.width && this.count > this.starting) {
      this.starting++;
      setImmediate(() => this.start());
    }
  }

  private start(): void {
    this.starting--;
    let next: string | undefined;
    for (const partnerId of this.waiting.keys())
      if (next === undefined || this.lastOf(partnerId) < this.lastOf(next)) next = partnerId;
    if (next === undefined) return;
    const steps = this.waiting.get(next)!;
    const resume = steps.ahead.shift() ?? steps.behind.shift()!;
    if (steps.ahead.length + steps.behind.length === 0) this.waiting.delete(next);
    this.count--;
    this.lastTurn.set(next, ++this.turns);
    this.running++;
    resume();
  }

  private lastOf(partnerId: string): number {
    return this.lastTurn.get(partnerId) ?? 0;
  }
}

import { fairShare } from './fair-share';
import { commandLease, readLease } from './lease-stream';
import { announceLeave, readLiveMembers, sendHeartbeat } from './membership';
import { planRebalance } from './plan-rebalance';
import { shardOf } from './shard-of';
import { ShardLeasesStoppedError } from './shard-leases-stopped.error';
import { type ShardLeasesOptions, validateShardLeasesOptions } from './shard-leases.options';

/**
 * Splits a group's shards among its live instances through the event store, so that each shard is worked by one
 * instance at a time. Every round an instance heartbeats, renews the leases it keeps, hands back those beyond its
 * fair share and takes free or expired ones up to it. Appends at the revision read make two instances that race
 * for a lease end with one holder; the loser just does not get it.
 *
 * Safety rests on time: an instance owns a shard until shortly before its lease ends (`safetyMarginMs`), and
 * another takes it only once the lease has ended, so clocks must agree to within the margin. Work already started
 * when ownership ends is not stopped: keep work items shorter than the margin or make them idempotent.
 */
export class ShardLeases {
  /** Shard → end of its lease as of my last append that went through: a lower bound, whatever happened since. */
  private readonly held = new Map<number, number>();
  private readonly marginMs: number;
  private tail: Promise<unknown> = Promise.resolve();
  private pendingRounds = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private reported: ReadonlySet<number> = new Set();

  constructor(private readonly options: ShardLeasesOptions) {
    validateShardLeasesOptions(options);
    this.marginMs = options.safetyMarginMs ?? options.ttlMs / 5;
  }

  /** True while this instance holds the shard's lease with more than the safety margin left. */
  owns(shard: number): boolean {
    const until = this.held.get(shard);
    return until !== undefined && until - this.marginMs > this.options.clock.now();
  }

  ownsKey(key: string): boolean {
    return this.owns(shardOf(key, this.options.shardCount));
  }

  /** The shards `owns` is true for, ascending. */
  owned(): ReadonlySet<number> {
    return new Set([...this.held.keys()].filter((shard) => this.owns(shard)).sort((a, b) => a - b));
  }

  /** Some held lease is within its safety margin or past it: the timer fell behind (or the clock jumped). */
  lapsed(): boolean {
    return [...this.held.keys()].some((shard) => !this.owns(shard));
  }

  /**
   * Before a pass of work: a round now when no timer renews the leases (driven by hand: tests, tools) or a held
   * lease has lapsed (the timer fell behind, or the clock jumped); otherwise nothing.
   */
  async ensureCurrent(): Promise<void> {
    if (!this.running || this.lapsed()) await this.refresh();
  }

  /**
   * One round; rounds never overlap (a call during one runs after it). A lost race is not an error; a store error
   * rejects, and the shards whose renewal it interrupted stay owned only until their previous lease ends.
   * After `stop` it does nothing and resolves to no shards.
   */
  refresh(): Promise<ReadonlySet<number>> {
    this.pendingRounds++;
    const round = this.tail.then(() => this.round()).finally(() => this.pendingRounds--);
    this.tail = round.catch(() => undefined);
    return round;
  }

  /** Joins the group: a round now (a store error goes to `onError`; the timer tries again), then `start()`. */
  async join(): Promise<void> {
    await this.refresh().catch((error: unknown) => this.options.onError?.(error));
    this.start(this.options.ttlMs / 3, false);
  }

  /** `stop()`, with a failed handover reported to `onError` instead of thrown (the leases then simply expire). */
  async leave(): Promise<void> {
    await this.stop().catch((error: unknown) => this.options.onError?.(error));
  }

  /** Whether the renewal timer runs (`start`/`join` called, not stopped). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /**
   * Runs a round now (unless `runNow` is false) and every `intervalMs` (skipped while one is still running); errors
   * go to `onError`.
   */
  start(intervalMs = this.options.ttlMs / 3, runNow = true): void {
    if (this.stopped) throw new ShardLeasesStoppedError(this.options.group);
    if (this.timer !== undefined) return;
    const tick = () => {
      if (this.pendingRounds === 0) this.refresh().catch((error: unknown) => this.options.onError?.(error));
    };
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
    if (runNow) tick();
  }

  /**
   * Leaves the group: stops the timer, waits for the round in progress, releases every held shard and announces
   * the leave, so the others take the shards at their next round instead of after the leases expire. Ownership
   * ends at once, even if the store fails (then the first error is thrown and the leases simply expire).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.tail;
    const { store, clock, group, owner } = this.options;
    const shards = [...this.held.keys()];
    this.held.clear();
    this.report();
    const errors: unknown[] = [];
    for (const shard of shards) {
      await this.release(shard, clock.now()).catch((error: unknown) => errors.push(error));
    }
    await announceLeave(store, group, owner).catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  }

  private async round(): Promise<ReadonlySet<number>> {
    if (this.stopped) return new Set();
    // A lease that lapsed since the last round (a stall: owns() turned false in between) is reported before it is
    // renewed, so a worker that stopped on the lapse hears that it owns the shard again.
    this.report();
    try {
      await this.rebalance(this.options.clock.now());
    } finally {
      this.report();
    }
    return this.reported;
  }

  private async rebalance(now: number): Promise<void> {
    const { store, group, owner, ttlMs, shardCount } = this.options;
    await sendHeartbeat(store, group, owner, now + ttlMs);
    const share = fairShare(shardCount, (await readLiveMembers(store, group, now)).length);
    const leases = await Promise.all(
      Array.from({ length: shardCount }, (_, shard) => readLease(store, group, shard)),
    );
    const plan = planRebalance(leases, owner, now, share);
    // The store is the truth: a held shard it no longer gives me was taken over after my lease expired.
    const mine = new Set([...plan.renew, ...plan.release]);
    for (const shard of this.held.keys()) if (!mine.has(shard)) this.held.delete(shard);
    for (const shard of plan.renew) await this.claim(shard, now);
    for (const shard of plan.release) await this.release(shard, now);
    for (const shard of plan.acquire) {
      if (this.held.size >= share) break;
      await this.claim(shard, now);
    }
  }

  /** Takes or renews a lease; it is held only if the append went through at the revision read. */
  private async claim(shard: number, now: number): Promise<void> {
    const { store, group, owner, ttlMs } = this.options;
    if (await commandLease(store, group, shard, { type: 'AcquireLease', data: { owner, now, ttlMs } })) {
      this.held.set(shard, now + ttlMs);
    } else {
      this.held.delete(shard);
    }
  }

  /** Stops owning the shard first, then hands the lease back (a lost race means it was not mine any more). */
  private async release(shard: number, now: number): Promise<void> {
    this.held.delete(shard);
    const { store, group, owner } = this.options;
    await commandLease(store, group, shard, { type: 'ReleaseLease', data: { owner, now } });
  }

  private report(): void {
    const owned = this.owned();
    if (owned.size === this.reported.size && [...owned].every((shard) => this.reported.has(shard))) return;
    this.reported = owned;
    this.options.onChange?.(owned);
  }
}

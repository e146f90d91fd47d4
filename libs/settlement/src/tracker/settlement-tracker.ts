import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import {
  ATTEMPT_STREAM_PREFIX,
  type AttemptEvent,
  attemptEventShapes,
  attemptIdOfStream,
  type AttemptRecord,
  DEFAULT_TRACKING_POLICY,
  endsAttempt,
  evolveTracking,
  flattenSlices,
  initialTrackingState,
  isTrackingState,
  nextWakeAt,
  type TrackingPolicy,
  type TrackingState,
} from '@svc/domain';
import {
  EVENT_STORE,
  type EventStore,
  eventsOfDecider,
  type Projected,
  projectedEvents,
} from '@svc/event-store';
import { CatchUpWorker, errorMessage, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { CLOCK, type Clock, PARTNER_DIRECTORY, type PartnerDirectory } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type ReceiptLog } from '@svc/providers';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { SETTLEMENT_OPTIONS, type SettlementOptions } from '../settlement.options';
import { AttemptStatusCensus, type CensusSnapshot } from './attempt-status-census';
import { deliveryKey, FillWatcher, type WatchedDelivery } from './fill-watcher';
import { waitingLegs } from './confirmation-schedule';
import { ConfirmationWatcher, DEFAULT_HEAD_POLL_MS } from './confirmation-watcher';
import { recheckSettledFills } from './leg-finality';
import { settlementMetrics } from './settlement-metrics';
import { planInput, trackAttempt } from './track-attempt';
import { type TrackerDeps } from './tracker-deps';

/** The lease group of the tracker instances: `lease-settlement-tracker-<shard>` streams. */
export const TRACKER_LEASE_GROUP = 'settlement-tracker';

/**
 * After `settled`, each settled fill is read again for this long (ADR 0008: a fill that vanishes is never silent) …
 */
export const SETTLED_RECHECK_WINDOW_MS = 30 * 60_000;
/** … every this often. */
export const SETTLED_RECHECK_EVERY_MS = 60_000;

/**
 * What the tracker reads of the log: every attempt stream, each event of a type the attempt decider knows and of the
 * shape it folds (its own guard). Another type is skipped, a malformed event quarantined (CatchUpWorker): an
 * AttemptPrepared without legs never opens an attempt the tracker could not fold.
 */
export const trackerReads = projectedEvents<AttemptEvent>({
  name: TRACKER_LEASE_GROUP,
  streamPrefixes: [ATTEMPT_STREAM_PREFIX],
  ...eventsOfDecider(attemptEventShapes),
});

/** One attempt the tracker follows: its last folded record, its pacing, when it is next due, and its run. */
interface OpenAttempt {
  record: AttemptRecord | null;
  /** The stream revision its last run ended at: events up to it are its own, not news. */
  revision: number;
  tracking: TrackingState;
  wakeAt: number;
  running: boolean;
  receiptLogs: Map<string, readonly ReceiptLog[]>;
}

/** What the tracker's checkpoint keeps besides the log position. */
interface TrackerState {
  open: string[];
  census: CensusSnapshot;
  /**
   * Optional (issue 24 item 2): the pacing of the open attempts that have any (each leg's next poll and backoff, a
   * failure's grace, hash retries, the deposit search's retries), so a restart resumes them instead of polling every
   * leg at once and restarting Relay's failure grace. A checkpoint of an earlier build has none.
   */
  pacing?: Record<string, TrackingState>;
  /**
   * Optional (issue 24 item 3, ADR 0008): settled attempts still in their re-check window, and until when (epoch ms),
   * so a restart keeps re-checking them. A checkpoint of an earlier build has none.
   */
  settledRechecks?: Record<string, number>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isTrackerState = (state: unknown): state is TrackerState =>
  typeof state === 'object' &&
  state !== null &&
  Array.isArray((state as TrackerState).open) &&
  (state as TrackerState).open.every((id) => typeof id === 'string') &&
  typeof (state as TrackerState).census === 'object' &&
  (state as TrackerState).census !== null &&
  Array.isArray((state as TrackerState).census.open);

/**
 * Moves every attempt to a true terminal state. Each pass it catches up with the global log (new attempts, new
 * evidence, terminal ones) and starts the due attempts in a bounded pool: every attempt has its own pacing and its own
 * run, so none waits for another, and a slow RPC or provider holds a pool place for at most the attempt budget. Beside
 * the passes, a scan of the destination chains (one at a time, never awaited by a pass, so a slow node delays only the
 * hints) makes legs whose target token arrived due at once. The work list and the log position are checkpointed
 * (CatchUpWorker), so a restart resumes from there instead of re-reading the whole log.
 *
 * Several instances share the attempts by shard (`shardOf(attemptId)`): an instance tracks only the attempts of the
 * shards it holds a lease on. Should two ever overlap (a stalled instance past its lease), every fact is decided
 * against the revision read and appended at it, so it is still recorded once.
 */
@Injectable()
export class SettlementTracker extends CatchUpWorker<AttemptEvent> {
  private readonly open = new Map<string, OpenAttempt>();
  /** Settled attempts whose fills are read again until `until` (ADR 0008); kept in the checkpoint. */
  private readonly settledRechecks = new Map<string, { until: number; nextAt: number; running: boolean }>();
  private readonly census = new AttemptStatusCensus();
  private readonly watcher: FillWatcher;
  /** Legs whose fill awaits confirmations, checked when a head of their chains reaches their depth (ADR 0008). */
  private readonly confirmations: ConfirmationWatcher;
  private readonly runs = new Set<Promise<void>>();
  private scanning: Promise<void> | null = null;
  private inPool = 0;
  private readonly policy: TrackingPolicy;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Readonly<Record<string, ProviderAdapter>>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTLEMENT_OPTIONS) private readonly options: SettlementOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
    /** Whose partners accept estimated settlement on chains the service cannot read (absent: nobody does). */
    @Optional() @Inject(PARTNER_DIRECTORY) private readonly partners?: PartnerDirectory,
  ) {
    super({
      store,
      clock,
      sharing,
      group: TRACKER_LEASE_GROUP,
      logger: new Logger('SettlementTracker'),
      ownershipMessage: 'tracking shards',
      reads: trackerReads,
      tickMs: options.tickMs,
      checkpointEveryMs: options.checkpointEveryMs,
    });
    this.watcher = new FillWatcher(chains);
    this.confirmations = new ConfirmationWatcher(
      {
        store,
        chains,
        clock,
        owns: (attemptId) => this.leases.ownsKey(attemptId),
        claim: (attemptId) => {
          const entry = this.open.get(attemptId);
          if (!entry || entry.running || !this.leases.ownsKey(attemptId)) return false;
          entry.running = true; // no run of the attempt starts while its legs are checked
          return true;
        },
        release: (attemptId) => {
          const entry = this.open.get(attemptId);
          if (entry) entry.running = false;
        },
        warn: (entry) => this.worker.logger.warn(entry),
      },
      {
        headPollMs: options.confirmationHeadPollMs ?? DEFAULT_HEAD_POLL_MS,
        concurrency: options.concurrency,
      },
    );
    this.policy = {
      ...DEFAULT_TRACKING_POLICY,
      pollMinMs: options.pollMinMs,
      pollMaxMs: options.pollMaxMs,
      hashRetryMinMs: options.pollMinMs,
      trackingLimitMs: options.trackingLimitMs,
      delayMarginMs: options.delayMarginMs,
    };
  }

  /**
   * One pass, and every run and scan it started, then one look at the heads of the chains legs await confirmations
   * on (also callable directly, e.g. by tests and operators).
   */
  override async tick(): Promise<void> {
    await super.tick();
    await this.scanning;
    await Promise.allSettled([...this.runs]);
    await this.confirmations.poll();
  }

  /** The passes, and the confirmation watcher's own looks (not paced by the passes: a busy pass delays no check). */
  protected override async afterJoin(): Promise<void> {
    await super.afterJoin();
    if (this.options.tickMs > 0) this.confirmations.start();
  }

  protected override async beforeLeave(): Promise<void> {
    await this.confirmations.stop();
    await super.beforeLeave();
  }

  protected override work(): Promise<void> {
    for (const [status, count] of Object.entries(this.census.counts())) {
      settlementMetrics.attempts.set({ status }, count);
    }
    this.hintDeliveries();
    this.launchDue();
    this.launchRechecks();
    return Promise.resolve();
  }

  protected override async drain(): Promise<void> {
    await this.scanning;
    await Promise.allSettled([...this.runs]);
  }

  protected override snapshot(): TrackerState {
    const pacing: Record<string, TrackingState> = {};
    for (const [attemptId, entry] of this.open) {
      if (entry.tracking !== initialTrackingState) pacing[attemptId] = entry.tracking;
    }
    const settledRechecks = Object.fromEntries(
      [...this.settledRechecks].map(([attemptId, { until }]) => [attemptId, until]),
    );
    return { open: [...this.open.keys()], census: this.census.snapshot(), pacing, settledRechecks };
  }

  protected override restore(state: unknown): boolean {
    if (!isTrackerState(state)) return false;
    const pacing = isPlainObject(state.pacing) ? state.pacing : {};
    for (const attemptId of state.open) {
      const saved = Object.hasOwn(pacing, attemptId) ? pacing[attemptId] : undefined;
      // Due at once (its deadlines are checked), but each leg, hash and search waits out its own saved schedule.
      this.open.set(attemptId, { ...this.fresh(), ...(isTrackingState(saved) ? { tracking: saved } : {}) });
    }
    this.census.restore(state.census);
    const rechecks = isPlainObject(state.settledRechecks) ? state.settledRechecks : {};
    for (const [attemptId, until] of Object.entries(rechecks)) {
      // Due at once: the first re-check after a restart reads each settled fill again.
      if (typeof until === 'number')
        this.settledRechecks.set(attemptId, { until, nextAt: 0, running: false });
    }
    return true;
  }

  /** New attempts, new facts on open ones (due at once) and terminal ones. */
  protected override observe(event: Projected<AttemptEvent>): void {
    const attemptId = attemptIdOfStream(event.streamId);
    this.census.observe(attemptId, event.type);
    if (event.type === 'AttemptSettled') {
      const until = event.data.at + SETTLED_RECHECK_WINDOW_MS;
      if (until > this.clock.now()) {
        this.settledRechecks.set(attemptId, {
          until,
          nextAt: event.data.at + SETTLED_RECHECK_EVERY_MS,
          running: false,
        });
      }
    }
    if (endsAttempt(event.type)) this.close(attemptId);
    else if (event.type === 'AttemptPrepared') this.open.set(attemptId, this.fresh());
    else {
      const entry = this.open.get(attemptId);
      if (entry && event.revision > entry.revision) entry.wakeAt = 0;
    }
  }

  /**
   * Deliveries of open legs' target tokens seen on the destination chains make those legs due now. One scan at a
   * time, in the background: the passes go on while a node is slow, and the legs it hints are launched by the pass
   * after it ends.
   */
  private hintDeliveries(): void {
    if (this.scanning) return;
    const watched = this.watchedDeliveries();
    if (watched.size === 0) return;
    this.scanning = this.watcher
      .scan([...watched.values()].map((legs) => legs[0].delivery))
      .then((seen) => {
        const now = this.clock.now();
        let hinted = false;
        for (const key of seen) {
          for (const { attemptId, sliceId } of watched.get(key) ?? []) {
            const entry = this.open.get(attemptId);
            if (!entry) continue;
            entry.tracking = evolveTracking(entry.tracking, { type: 'LegHinted', sliceId, at: now });
            entry.wakeAt = Math.min(entry.wakeAt, now);
            hinted = true;
          }
        }
        if (hinted) void super.tick();
      })
      .catch(() => undefined) // a failed scan loses hints, nothing else
      .finally(() => (this.scanning = null));
  }

  private watchedDeliveries(): Map<
    string,
    { attemptId: string; sliceId: string; delivery: WatchedDelivery }[]
  > {
    const watched = new Map<string, { attemptId: string; sliceId: string; delivery: WatchedDelivery }[]>();
    for (const [attemptId, entry] of this.open) {
      const record = entry.record;
      if (record === null || record.status === 'prepared' || !this.leases.ownsKey(attemptId)) continue;
      for (const { slice, leg } of flattenSlices(record.prepared)) {
        const progress = record.slices.find((s) => s.sliceId === slice.sliceId);
        if (slice.noop || progress === undefined || isTerminalLegStatus(progress.status)) continue;
        const delivery = {
          chainId: leg.target.chainId,
          token: leg.target.address,
          recipient: record.prepared.recipient,
        };
        const key = deliveryKey(delivery);
        watched.set(key, [...(watched.get(key) ?? []), { attemptId, sliceId: slice.sliceId, delivery }]);
      }
    }
    return watched;
  }

  private launchDue(): void {
    const now = this.clock.now();
    for (const [attemptId, entry] of this.open) {
      if (this.inPool >= this.options.concurrency) return;
      if (entry.running || entry.wakeAt > now || !this.leases.ownsKey(attemptId)) continue;
      this.start(attemptId, entry);
    }
  }

  /** Runs one attempt; its pool place is given back when it ends or its budget runs out, whichever comes first. */
  private start(attemptId: string, entry: OpenAttempt): void {
    entry.running = true;
    this.inPool++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inPool--;
    };
    const budget = setTimeout(release, this.options.attemptBudgetMs);
    const run = this.runOnce(attemptId, entry).finally(() => {
      clearTimeout(budget);
      release();
      entry.running = false;
      this.runs.delete(run);
    });
    this.runs.add(run);
  }

  private async runOnce(attemptId: string, entry: OpenAttempt): Promise<void> {
    const now = this.clock.now();
    try {
      const loaded = await loadAttempt(this.worker.store, attemptId, null);
      if (!loaded || isTerminalAttemptStatus(loaded.record.status)) {
        this.close(attemptId);
        return;
      }
      const deps = this.deps(entry, loaded.record.prepared.partnerId);
      const result = await trackAttempt(deps, loaded.record, entry.tracking, now);
      entry.record = result.record;
      entry.tracking = result.tracking;
      entry.revision = result.revision ?? loaded.revision;
      if (isTerminalAttemptStatus(result.record.status)) {
        this.close(attemptId);
        return;
      }
      // Facts this run appended come back through the log and wake the attempt once more; the schedule says the rest.
      const wake = nextWakeAt(result.record, result.tracking, {
        ...planInput({ adapters: this.adapters, chains: this.chains }, now),
        trackingLimitMs: this.options.trackingLimitMs,
        delayMarginMs: this.policy.delayMarginMs,
      });
      // A fill awaiting confirmations waits for a head of its chain (ConfirmationWatcher), not for this attempt's runs.
      this.confirmations.track(
        attemptId,
        waitingLegs(result.record, (chainId) => this.chains.has(chainId)),
      );
      entry.wakeAt = Math.max(now + 1, wake);
    } catch (err) {
      // One attempt's trouble (a node or provider outage) must not stall the others: it is tried again later.
      entry.wakeAt = now + this.options.pollMinMs;
      this.worker.logger.warn({ msg: 'tracking failed; retried later', attemptId, error: errorMessage(err) });
    }
  }

  /**
   * Settled attempts in their re-check window (ADR 0008) read their fills again, one run each at a time, outside the
   * pool: a fill gone from the block it settled in is recorded (SettledFillVanished), counted and logged as an error.
   */
  private launchRechecks(): void {
    const now = this.clock.now();
    for (const [attemptId, entry] of this.settledRechecks) {
      if (now >= entry.until) {
        this.settledRechecks.delete(attemptId);
        continue;
      }
      if (entry.running || now < entry.nextAt || !this.leases.ownsKey(attemptId)) continue;
      entry.running = true;
      const run = recheckSettledFills(this.deps(this.fresh()), attemptId, now)
        .then((vanished) => {
          for (const leg of vanished) {
            settlementMetrics.settledFillsVanished.inc();
            this.worker.logger.error({ msg: 'a settled fill vanished (ADR 0008)', attemptId, ...leg });
          }
        })
        .catch((err: unknown) =>
          this.worker.logger.warn({
            msg: 're-check of a settled attempt failed',
            attemptId,
            error: errorMessage(err),
          }),
        )
        .finally(() => {
          entry.running = false;
          entry.nextAt = now + SETTLED_RECHECK_EVERY_MS;
          this.runs.delete(run);
        });
      this.runs.add(run);
    }
  }

  private deps(entry: OpenAttempt, partnerId?: string): TrackerDeps {
    const partner = partnerId === undefined ? undefined : this.partners?.get(partnerId);
    return {
      acceptsEstimated: partner?.acceptEstimatedSettlement === true,
      store: this.worker.store,
      chains: this.chains,
      adapters: this.adapters,
      policy: this.policy,
      providerTimeoutMs: Math.min(10_000, this.options.attemptBudgetMs),
      receiptLogs: entry.receiptLogs,
      confirmationsWatched: true,
    };
  }

  /** The attempt is no longer followed: nor are its legs' confirmations. */
  private close(attemptId: string): void {
    this.open.delete(attemptId);
    this.confirmations.forget(attemptId);
  }

  private fresh(): OpenAttempt {
    return {
      record: null,
      revision: -1,
      tracking: initialTrackingState,
      wakeAt: 0,
      running: false,
      receiptLogs: new Map(),
    };
  }
}

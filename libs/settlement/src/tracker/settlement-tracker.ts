import { Inject, Injectable, Logger } from '@nestjs/common';
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
import { CLOCK, type Clock } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type ReceiptLog } from '@svc/providers';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { SETTLEMENT_OPTIONS, type SettlementOptions } from '../settlement.options';
import { AttemptStatusCensus, type CensusSnapshot } from './attempt-status-census';
import { deliveryKey, FillWatcher, type WatchedDelivery } from './fill-watcher';
import { settlementMetrics } from './settlement-metrics';
import { planInput, trackAttempt } from './track-attempt';
import { type TrackerDeps } from './tracker-deps';

/** The lease group of the tracker instances: `lease-settlement-tracker-<shard>` streams. */
export const TRACKER_LEASE_GROUP = 'settlement-tracker';

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
}

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
  private readonly census = new AttemptStatusCensus();
  private readonly watcher: FillWatcher;
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
    this.policy = {
      ...DEFAULT_TRACKING_POLICY,
      pollMinMs: options.pollMinMs,
      pollMaxMs: options.pollMaxMs,
      hashRetryMinMs: options.pollMinMs,
      trackingLimitMs: options.trackingLimitMs,
      delayMarginMs: options.delayMarginMs,
    };
  }

  /** One pass, and every run and scan it started (also callable directly, e.g. by tests and operators). */
  override async tick(): Promise<void> {
    await super.tick();
    await this.scanning;
    await Promise.allSettled([...this.runs]);
  }

  protected override work(): Promise<void> {
    for (const [status, count] of Object.entries(this.census.counts())) {
      settlementMetrics.attempts.set({ status }, count);
    }
    this.hintDeliveries();
    this.launchDue();
    return Promise.resolve();
  }

  protected override async drain(): Promise<void> {
    await this.scanning;
    await Promise.allSettled([...this.runs]);
  }

  protected override snapshot(): TrackerState {
    return { open: [...this.open.keys()], census: this.census.snapshot() };
  }

  protected override restore(state: unknown): boolean {
    if (!isTrackerState(state)) return false;
    for (const attemptId of state.open) this.open.set(attemptId, this.fresh());
    this.census.restore(state.census);
    return true;
  }

  /** New attempts, new facts on open ones (due at once) and terminal ones. */
  protected override observe(event: Projected<AttemptEvent>): void {
    const attemptId = attemptIdOfStream(event.streamId);
    this.census.observe(attemptId, event.type);
    if (endsAttempt(event.type)) this.open.delete(attemptId);
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
        this.open.delete(attemptId);
        return;
      }
      const result = await trackAttempt(this.deps(entry), loaded.record, entry.tracking, now);
      entry.record = result.record;
      entry.tracking = result.tracking;
      entry.revision = result.revision ?? loaded.revision;
      if (isTerminalAttemptStatus(result.record.status)) {
        this.open.delete(attemptId);
        return;
      }
      // Facts this run appended come back through the log and wake the attempt once more; the schedule says the rest.
      const wake = nextWakeAt(result.record, result.tracking, {
        ...planInput({ adapters: this.adapters, chains: this.chains }, now),
        trackingLimitMs: this.options.trackingLimitMs,
        delayMarginMs: this.policy.delayMarginMs,
      });
      entry.wakeAt = Math.max(now + 1, wake);
    } catch (err) {
      // One attempt's trouble (a node or provider outage) must not stall the others: it is tried again later.
      entry.wakeAt = now + this.options.pollMinMs;
      this.worker.logger.warn({ msg: 'tracking failed; retried later', attemptId, error: errorMessage(err) });
    }
  }

  private deps(entry: OpenAttempt): TrackerDeps {
    return {
      store: this.worker.store,
      chains: this.chains,
      adapters: this.adapters,
      policy: this.policy,
      providerTimeoutMs: Math.min(10_000, this.options.attemptBudgetMs),
      receiptLogs: entry.receiptLogs,
    };
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

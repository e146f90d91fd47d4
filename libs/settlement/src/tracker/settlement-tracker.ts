import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import {
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
import { EVENT_STORE, type EventStore, type Position, readAllPaged } from '@svc/event-store';
import { leasesFor, type ShardLeases, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { CLOCK, type Clock, PassScheduler } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type ReceiptLog } from '@svc/providers';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { SETTLEMENT_OPTIONS, type SettlementOptions } from '../settlement.options';
import { AttemptStatusCensus } from './attempt-status-census';
import { deliveryKey, FillWatcher, type WatchedDelivery } from './fill-watcher';
import { settlementMetrics } from './settlement-metrics';
import { planInput, trackAttempt } from './track-attempt';
import { readTrackerCheckpoint, writeTrackerCheckpoint } from './tracker-checkpoint';
import { type TrackerDeps } from './tracker-deps';

/** The lease group of the tracker instances: `lease-settlement-tracker-<shard>` streams. */
export const TRACKER_LEASE_GROUP = 'settlement-tracker';

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

/**
 * Moves every attempt to a true terminal state. Each tick it catches up with the global log (new attempts, new
 * evidence, terminal ones), asks the destination chains whether a watched delivery arrived, and starts the due
 * attempts in a bounded pool: every attempt has its own pacing and its own run, so none waits for another, and a slow
 * RPC or provider holds a pool place for at most the attempt budget. The work list and the log position are
 * checkpointed, so a restart resumes from there instead of re-reading the whole log.
 *
 * Several instances share the attempts by shard (`shardOf(attemptId)`): an instance tracks only the attempts of the
 * shards it holds a lease on. Should two ever overlap (a stalled instance past its lease), every fact is decided
 * against the revision read and appended at it, so it is still recorded once.
 */
@Injectable()
export class SettlementTracker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SettlementTracker');
  private readonly open = new Map<string, OpenAttempt>();
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());
  private readonly census = new AttemptStatusCensus();
  private readonly leases: ShardLeases;
  private readonly watcher: FillWatcher;
  private readonly runs = new Set<Promise<void>>();
  private inPool = 0;
  private checkpointedAt = 0;
  private checkpointedPosition: Position | undefined;
  private readonly policy: TrackingPolicy;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Readonly<Record<string, ProviderAdapter>>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTLEMENT_OPTIONS) private readonly options: SettlementOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    this.watcher = new FillWatcher(chains);
    this.policy = {
      ...DEFAULT_TRACKING_POLICY,
      pollMinMs: options.pollMinMs,
      pollMaxMs: options.pollMaxMs,
      hashRetryMinMs: options.pollMinMs,
      trackingLimitMs: options.trackingLimitMs,
      delayMarginMs: options.delayMarginMs,
    };
    this.leases = leasesFor(sharing, {
      store,
      clock,
      group: TRACKER_LEASE_GROUP,
      onChange: (owned) => this.logger.log({ msg: 'tracking shards', shards: [...owned] }),
      onError: (err) => this.logger.warn({ msg: 'shard lease round failed', error: (err as Error)?.message }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.resume();
    await this.leases.join();
    this.scheduler.start(this.options.tickMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await Promise.allSettled([...this.runs]);
    await this.checkpoint(true).catch(() => undefined);
    await this.leases.leave();
  }

  /** One tick, and every run it started (also callable directly, e.g. by tests and operators). */
  async tick(): Promise<void> {
    await this.scheduler.run();
    await Promise.allSettled([...this.runs]);
  }

  private async pass(): Promise<void> {
    try {
      await this.leases.ensureCurrent();
      await this.discover();
      await this.hintDeliveries();
      this.launchDue();
      await this.checkpoint(false);
    } catch (err) {
      this.logger.error(`tracker pass failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** From the checkpoint, if one was written: the work list and where to read the log on from. */
  private async resume(): Promise<void> {
    const checkpoint = await readTrackerCheckpoint(this.store).catch(() => null);
    if (checkpoint === null) return;
    this.position = checkpoint.position ?? undefined;
    this.checkpointedPosition = this.position;
    for (const attemptId of checkpoint.open) this.open.set(attemptId, this.fresh());
    this.census.restore(checkpoint.census);
  }

  private async checkpoint(force: boolean): Promise<void> {
    const now = this.clock.now();
    if (this.position === this.checkpointedPosition) return;
    if (!force && now - this.checkpointedAt < this.options.checkpointEveryMs) return;
    await writeTrackerCheckpoint(
      this.store,
      { position: this.position ?? null, open: [...this.open.keys()], census: this.census.snapshot() },
      randomUUID(),
    );
    this.checkpointedAt = now;
    this.checkpointedPosition = this.position;
  }

  /** New attempts, new facts on open ones (due at once) and terminal ones, from the global log since the last tick. */
  private async discover(): Promise<void> {
    this.position = await readAllPaged(
      this.store,
      { after: this.position, streamPrefixes: ['attempt-'] },
      (event) => {
        const attemptId = event.streamId.slice('attempt-'.length);
        this.census.observe(attemptId, event.type);
        if (endsAttempt(event.type)) this.open.delete(attemptId);
        else if (event.type === 'AttemptPrepared') this.open.set(attemptId, this.fresh());
        else {
          const entry = this.open.get(attemptId);
          if (entry && event.revision > entry.revision) entry.wakeAt = 0;
        }
      },
    );
    for (const [status, count] of Object.entries(this.census.counts())) {
      settlementMetrics.attempts.set({ status }, count);
    }
  }

  /** Deliveries of open legs' target tokens seen on the destination chains make those legs due now. */
  private async hintDeliveries(): Promise<void> {
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
    if (watched.size === 0) return;
    const seen = await this.watcher.scan([...watched.values()].map((legs) => legs[0].delivery));
    const now = this.clock.now();
    for (const key of seen) {
      for (const { attemptId, sliceId } of watched.get(key) ?? []) {
        const entry = this.open.get(attemptId);
        if (!entry) continue;
        entry.tracking = evolveTracking(entry.tracking, { type: 'LegHinted', sliceId, at: now });
        entry.wakeAt = Math.min(entry.wakeAt, now);
      }
    }
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
      const loaded = await loadAttempt(this.store, attemptId, null);
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
      this.logger.warn({ msg: 'tracking failed; retried later', attemptId, error: (err as Error)?.message });
    }
  }

  private deps(entry: OpenAttempt): TrackerDeps {
    return {
      store: this.store,
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

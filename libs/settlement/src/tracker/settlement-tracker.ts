import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { isTerminalAttemptStatus } from '@svc/contract';
import {
  EVENT_STORE,
  type EventStore,
  type Position,
  leasesFor,
  readAllPaged,
  type ShardLeases,
  WORK_SHARING,
  type WorkSharing,
} from '@svc/event-store';
import { CLOCK, type Clock, PassScheduler } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { SETTLEMENT_OPTIONS, type SettlementOptions } from '../settlement.options';
import { AttemptStatusCensus } from './attempt-status-census';
import { settlementMetrics } from './settlement-metrics';
import { trackAttempt } from './track-attempt';

const TERMINAL_EVENTS = new Set(['AttemptSettled', 'AttemptFailed', 'AttemptExpired']);

/** The lease group of the tracker instances: `lease-settlement-tracker-<shard>` streams. */
export const TRACKER_LEASE_GROUP = 'settlement-tracker';

/**
 * Moves every attempt to a true terminal state. Its work list is rebuilt from the event store on start (every
 * `attempt-*` stream without a terminal event), so a restart loses nothing; passes never overlap.
 *
 * Several instances share the attempts by shard (`shardOf(attemptId)`): an instance tracks only the attempts of the
 * shards it holds a lease on, so each attempt is tracked by one instance at a time, and the shards of an instance
 * that dies are taken over once its leases expire. Should two ever overlap (a stalled instance past its lease),
 * the deterministic event ids and expected revisions of `decideAndAppend` still record every fact once.
 */
@Injectable()
export class SettlementTracker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SettlementTracker');
  private readonly open = new Set<string>();
  private readonly nextPoll = new Map<string, { at: number; delay: number }>();
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());
  private readonly census = new AttemptStatusCensus();
  private readonly leases: ShardLeases;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Record<RoutableProvider, ProviderAdapter>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTLEMENT_OPTIONS) private readonly options: SettlementOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    this.leases = leasesFor(sharing, {
      store,
      clock,
      group: TRACKER_LEASE_GROUP,
      onChange: (owned) => this.logger.log({ msg: 'tracking shards', shards: [...owned] }),
      onError: (err) => this.logger.warn({ msg: 'shard lease round failed', error: (err as Error)?.message }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.leases.join();
    this.scheduler.start(this.options.tickMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await this.leases.leave();
  }

  /** One pass over every open attempt (also callable directly, e.g. by tests and operators). */
  tick(): Promise<void> {
    return this.scheduler.run();
  }

  private async pass(): Promise<void> {
    try {
      await this.leases.ensureCurrent();
      await this.discover();
      for (const attemptId of [...this.open]) {
        if (!this.leases.ownsKey(attemptId)) continue; // another instance's shard
        const loaded = await loadAttempt(this.store, attemptId, null);
        if (!loaded || isTerminalAttemptStatus(loaded.record.status)) {
          this.open.delete(attemptId);
          continue;
        }
        try {
          const after = await trackAttempt(this.deps(), attemptId, loaded.record, this.clock.now());
          if (isTerminalAttemptStatus(after.status)) this.open.delete(attemptId);
        } catch (err) {
          // One attempt's trouble (a node or provider outage) must not stall the others: it is tried next pass.
          this.logger.warn({
            msg: 'tracking failed; retried next pass',
            attemptId,
            error: (err as Error)?.message,
          });
        }
      }
    } catch (err) {
      this.logger.error(`tracker pass failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** New attempts and terminal ones, from the store's global log since the last pass. */
  private async discover(): Promise<void> {
    this.position = await readAllPaged(
      this.store,
      { after: this.position, streamPrefixes: ['attempt-'] },
      (event) => {
        const attemptId = event.streamId.slice('attempt-'.length);
        if (TERMINAL_EVENTS.has(event.type)) this.open.delete(attemptId);
        else if (event.type === 'AttemptPrepared') this.open.add(attemptId);
        this.census.observe(attemptId, event.type);
      },
    );
    for (const [status, count] of Object.entries(this.census.counts())) {
      settlementMetrics.attempts.set({ status }, count);
    }
  }

  private deps() {
    return {
      store: this.store,
      chains: this.chains,
      adapters: this.adapters,
      trackingLimitMs: this.options.trackingLimitMs,
      mayPoll: (sliceId: string, now: number) => (this.nextPoll.get(sliceId)?.at ?? 0) <= now,
      polled: (sliceId: string, changed: boolean, now: number) => {
        const previous = this.nextPoll.get(sliceId)?.delay ?? this.options.pollMinMs;
        const delay = changed ? this.options.pollMinMs : Math.min(this.options.pollMaxMs, previous * 2);
        this.nextPoll.set(sliceId, { at: now + delay, delay });
      },
    };
  }
}

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { isTerminalAttemptStatus } from '@svc/contract';
import { EVENT_STORE, type EventStore, type Position } from '@svc/event-store';
import { CLOCK, type Clock, PassScheduler } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { SETTLEMENT_OPTIONS, type SettlementOptions } from '../settlement.options';
import { trackAttempt } from './track-attempt';

const TERMINAL_EVENTS = new Set(['AttemptSettled', 'AttemptFailed', 'AttemptExpired']);

/**
 * Moves every attempt to a true terminal state. Its work list is rebuilt from the event store on start (every
 * `attempt-*` stream without a terminal event), so a restart loses nothing; passes never overlap.
 */
@Injectable()
export class SettlementTracker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SettlementTracker');
  private readonly open = new Set<string>();
  private readonly nextPoll = new Map<string, { at: number; delay: number }>();
  private position: Position | undefined;
  private readonly scheduler = new PassScheduler(() => this.pass());

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Record<RoutableProvider, ProviderAdapter>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTLEMENT_OPTIONS) private readonly options: SettlementOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.scheduler.start(this.options.tickMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
  }

  /** One pass over every open attempt (also callable directly, e.g. by tests and operators). */
  tick(): Promise<void> {
    return this.scheduler.run();
  }

  private async pass(): Promise<void> {
    try {
      await this.discover();
      for (const attemptId of [...this.open]) {
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
          this.logger.warn(`attempt ${attemptId}: ${(err as Error)?.message ?? String(err)}`);
        }
      }
    } catch (err) {
      this.logger.error(`tracker pass failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** New attempts and terminal ones, from the store's global log since the last pass. */
  private async discover(): Promise<void> {
    for (;;) {
      const events = await this.store.readAll({
        after: this.position,
        streamPrefixes: ['attempt-'],
        maxCount: 500,
      });
      for (const event of events) {
        const attemptId = event.streamId.slice('attempt-'.length);
        if (TERMINAL_EVENTS.has(event.type)) this.open.delete(attemptId);
        else if (event.type === 'AttemptPrepared') this.open.add(attemptId);
        this.position = event.position;
      }
      if (events.length < 500) return;
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

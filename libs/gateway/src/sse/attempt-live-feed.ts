import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ATTEMPT_STREAM_PREFIX } from '@svc/domain';
import { EVENT_STORE, type EventStore, type Subscription } from '@svc/event-store';
import { type Logger } from '@svc/platform';
import { GATEWAY_LOGGER } from '../gateway.tokens';

/** One open live status stream, as the feed sees it. */
export interface LiveFeedWatcher {
  /** An event was appended to the watched stream: called once per event (the watcher coalesces them). */
  appended(): void;
  /** The feed failed: no wake-up will come any more, and the watcher is already dropped. */
  failed(error: unknown): void;
}

/** A registration with the feed; `close()` ends it (any number of times). */
export interface LiveFeedWatch {
  close(): void;
}

interface Run {
  started: Promise<Subscription>;
}

/**
 * One live subscription per process to the log of `attempt-` streams, fanned out to the open live status streams.
 * It starts at the head of the log when the first stream registers (nothing of the past is read) and stops when the
 * last one leaves. Each event wakes only the streams watching its attempt: a stream then reads its own attempt stream
 * once, and costs no store read while nothing is appended to its attempt. The feed holds no event, only who watches
 * which stream.
 */
@Injectable()
export class AttemptLiveFeed implements OnModuleDestroy {
  private readonly watchers = new Map<string, Set<LiveFeedWatcher>>();
  private count = 0;
  private run: Run | undefined;
  private stopping: Promise<void> = Promise.resolve();
  private starts = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  /** Registered watchers (tests, diagnostics). */
  get watching(): number {
    return this.count;
  }

  /** Whether the subscription runs (tests, diagnostics): from the first registration to the last close. */
  get running(): boolean {
    return this.run !== undefined;
  }

  /** How many times the subscription was started (tests, diagnostics). */
  get started(): number {
    return this.starts;
  }

  /**
   * Watches appends to `streamId`. Resolves once the feed runs: every append completed after that calls
   * `watcher.appended()`, so a stream that reads its attempt after this resolved misses nothing. Rejects (and
   * registers nothing) when the subscription cannot start.
   */
  async watch(streamId: string, watcher: LiveFeedWatcher): Promise<LiveFeedWatch> {
    let set = this.watchers.get(streamId);
    if (set === undefined) this.watchers.set(streamId, (set = new Set()));
    set.add(watcher);
    this.count++;
    const watch = { close: () => this.unwatch(streamId, watcher) };
    try {
      await this.ensureRunning().started;
    } catch (error) {
      watch.close();
      throw error;
    }
    return watch;
  }

  /** At shutdown: the subscription stops (the streams are closed by their owner). */
  async onModuleDestroy(): Promise<void> {
    const run = this.run;
    this.run = undefined;
    if (run !== undefined) this.stop(run);
    await this.stopping;
  }

  private ensureRunning(): Run {
    if (this.run !== undefined) return this.run;
    const run: Run = {
      started: this.store.subscribeLive({
        streamPrefixes: [ATTEMPT_STREAM_PREFIX],
        handler: (event) => {
          this.wake(event.streamId);
          return Promise.resolve();
        },
        onError: (error) => this.fail(run, error),
      }),
    };
    this.run = run;
    this.starts++;
    run.started.catch(() => {
      if (this.run === run) this.run = undefined;
    });
    return run;
  }

  private wake(streamId: string): void {
    const set = this.watchers.get(streamId);
    if (set === undefined) return;
    for (const watcher of set) watcher.appended();
  }

  private unwatch(streamId: string, watcher: LiveFeedWatcher): void {
    const set = this.watchers.get(streamId);
    if (set === undefined || !set.delete(watcher)) return;
    if (set.size === 0) this.watchers.delete(streamId);
    this.count--;
    if (this.count === 0 && this.run !== undefined) {
      const run = this.run;
      this.run = undefined;
      this.stop(run);
    }
  }

  private stop(run: Run): void {
    const stopped = run.started.then((subscription) => subscription.stop()).catch(() => undefined);
    this.stopping = Promise.all([this.stopping, stopped]).then(() => undefined);
  }

  /** The subscription failed: every watcher is told and dropped (its client reconnects with Last-Event-ID). */
  private fail(run: Run, error: unknown): void {
    if (this.run !== run) return;
    this.run = undefined;
    this.stop(run); // already ended by the store; stopping it too is harmless and certain
    this.logger.warn(
      { error: (error as Error)?.message, streams: this.count },
      'the live status feed failed; its streams end',
    );
    const dropped = [...this.watchers.values()].flatMap((set) => [...set]);
    this.watchers.clear();
    this.count = 0;
    for (const watcher of dropped) watcher.failed(error);
  }
}

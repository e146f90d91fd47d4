import { EventStoreClosedError } from '../event-store-closed.error';
import {
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../event-store.port';
import { matchesPrefixes } from '../matches-prefixes';
import { planAppend } from '../plan-append';
import { startPollingSubscription } from '../polling-subscription';
import { decodeSequencePosition, encodeSequencePosition } from '../sequence-position';
import { settle } from '../settle';
import {
  isLive,
  type MemoryEvent,
  MemoryEventStoreState,
  type MemoryStream,
} from './memory-event-store.state';
import { firstIndexAfter, toRecorded } from './memory-log';
import { applySettings, liveEvents, trimToMaxCount } from './memory-stream';
import { SubscriptionRegistry } from '../subscription-registry';

export interface MemoryEventStoreOptions {
  /** Time used for recordedAt and expiry; tests pass a controllable clock. */
  clock?: () => Date;
  /** Share state with a previous instance to simulate a restart. */
  state?: MemoryEventStoreState;
}

// Compacting the global log is O(n); once a second keeps appends cheap while storage stays bounded.
const COMPACTION_INTERVAL_MS = 1000;

/** In-process event store for unit tests and local runs; same semantics as the SQLite and EventStoreDB stores. */
export class MemoryEventStore implements EventStore {
  readonly state: MemoryEventStoreState;
  private readonly clock: () => Date;
  private readonly subscriptions = new SubscriptionRegistry();
  private closed = false;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.state = options.state ?? new MemoryEventStoreState();
    this.clock = options.clock ?? (() => new Date());
  }

  append(streamId: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    return this.run(() => {
      const now = this.clock().getTime();
      const stream = this.state.streams.get(streamId);
      const plan = planAppend(
        streamId,
        events.map((event) => event.id),
        options.expectedRevision,
        {
          revision: stream?.revision,
          idsAt: (from, count) =>
            liveEvents(stream, now)
              .filter((event) => event.revision >= from && event.revision < from + count)
              .map((event) => event.id),
        },
      );
      if (plan.kind === 'duplicate') {
        const last = liveEvents(stream, now).find((event) => event.revision === plan.lastRevision);
        return { nextRevision: plan.lastRevision, position: encodeSequencePosition(last?.sequence ?? 0) };
      }
      // Serialise first: a batch that is not JSON fails before anything is written.
      const serialised = events.map((event) => ({
        id: event.id,
        type: event.type,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata ?? {}),
      }));
      const target = stream ?? this.createStream(streamId);
      applySettings(target, options);
      const written = serialised.map((event, i): MemoryEvent => {
        const expiresAtMs =
          target.maxAgeSeconds === undefined ? undefined : now + target.maxAgeSeconds * 1000;
        const revision = plan.firstRevision + i;
        return {
          ...event,
          streamId,
          revision,
          sequence: ++this.state.lastSequence,
          recordedAtMs: now,
          expiresAtMs,
          removed: false,
        };
      });
      target.events.push(...written);
      this.state.log.push(...written);
      target.revision = plan.firstRevision + written.length - 1;
      trimToMaxCount(target);
      this.compact(now);
      this.state.signal.notify();
      return { nextRevision: target.revision, position: encodeSequencePosition(this.state.lastSequence) };
    });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => {
      const events = liveEvents(this.state.streams.get(streamId), this.clock().getTime());
      const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
      if (options.direction === 'backwards') {
        const from = options.fromRevision ?? Number.POSITIVE_INFINITY;
        return events
          .filter((event) => event.revision <= from)
          .reverse()
          .slice(0, limit)
          .map(toRecorded);
      }
      const from = options.fromRevision ?? 0;
      return events
        .filter((event) => event.revision >= from)
        .slice(0, limit)
        .map(toRecorded);
    });
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.run(() => this.readPage(options.after, options.streamPrefixes, options.maxCount).events);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    await this.run(() => undefined);
    const subscription = await startPollingSubscription(
      {
        readPage: (after, prefixes, limit) => this.run(() => this.readPage(after, prefixes, limit)),
        readCheckpoint: (id) => this.readCheckpoint(id),
        storeCheckpoint: (id, position) => this.run(() => void this.state.checkpoints.set(id, position)),
        signal: this.state.signal,
      },
      options,
    );
    return this.subscriptions.track(subscription);
  }

  readCheckpoint(subscriptionId: string): Promise<Position | undefined> {
    return this.run(() => this.state.checkpoints.get(subscriptionId));
  }

  ping(): Promise<void> {
    return this.run(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.subscriptions.stopAll();
    this.closed = true;
  }

  private readPage(
    after: Position | undefined,
    prefixes: readonly string[] | undefined,
    limit = Number.POSITIVE_INFINITY,
  ): { events: RecordedEvent[]; scannedTo: Position | undefined } {
    const now = this.clock().getTime();
    const log = this.state.log;
    const afterSequence = after === undefined ? 0 : decodeSequencePosition(after);
    const events: RecordedEvent[] = [];
    for (let i = firstIndexAfter(log, afterSequence); i < log.length && events.length < limit; i++) {
      const event = log[i];
      if (isLive(event, now) && matchesPrefixes(event.streamId, prefixes)) events.push(toRecorded(event));
    }
    const full = events.length >= limit;
    const scannedTo = full
      ? (events.at(-1)?.position ?? after)
      : encodeSequencePosition(this.state.lastSequence);
    return { events, scannedTo };
  }

  private createStream(streamId: string): MemoryStream {
    const stream: MemoryStream = { revision: -1, maxAgeSeconds: undefined, maxCount: undefined, events: [] };
    this.state.streams.set(streamId, stream);
    return stream;
  }

  private compact(now: number): void {
    if (now - this.state.lastCompactionMs < COMPACTION_INTERVAL_MS) return;
    this.state.lastCompactionMs = now;
    this.state.log = this.state.log.filter((event) => isLive(event, now));
    for (const stream of this.state.streams.values()) {
      if (stream.maxAgeSeconds !== undefined)
        stream.events = stream.events.filter((event) => isLive(event, now));
    }
  }

  private run<T>(work: () => T): Promise<T> {
    return settle(() => {
      if (this.closed) throw new EventStoreClosedError();
      return work();
    });
  }
}

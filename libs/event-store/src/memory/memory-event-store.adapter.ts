import type * as port from '../event-store.port';
import { matchesPrefixes } from '../matches-prefixes';
import { planAppend } from '../plan-append';
import { decodeSequencePosition, encodeSequencePosition } from '../sequence-position';
import { serialiseEvent } from '../serialise-event';
import { StoreLifecycle } from '../store-lifecycle';
import { subscribeLivePolling } from '../subscribe-live-polling';
import { subscribePolling } from '../subscribe-polling';
import {
  isLive,
  type MemoryEvent,
  MemoryEventStoreState,
  type MemoryStream,
} from './memory-event-store.state';
import { firstIndexAfter, toRecorded } from './memory-log';
import { applySettings, cutBefore, liveEvents, streamHead, trimToMaxCount } from './memory-stream';

export interface MemoryEventStoreOptions {
  /** Time used for recordedAt and expiry; tests pass a controllable clock. */
  clock?: () => Date;
  /** Share state with a previous instance to simulate a restart. */
  state?: MemoryEventStoreState;
}

// Compacting the global log is O(n); once a second keeps appends cheap while storage stays bounded.
const COMPACTION_INTERVAL_MS = 1000;

/** In-process event store for unit tests and local runs; same semantics as the SQLite and EventStoreDB stores. */
export class MemoryEventStore implements port.EventStore, port.StreamTruncation {
  readonly state: MemoryEventStoreState;
  private readonly clock: () => Date;
  private readonly lifecycle = new StoreLifecycle();
  private logReads = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.state = options.state ?? new MemoryEventStoreState();
    this.clock = options.clock ?? (() => new Date());
  }

  append(streamId: string, events: port.NewEvent[], options: port.AppendOptions): Promise<port.AppendResult> {
    return this.lifecycle.run(() => {
      const now = this.clock().getTime();
      const stream = this.state.streams.get(streamId);
      const ids = events.map((event) => event.id);
      const plan = planAppend(streamId, ids, options.expectedRevision, streamHead(stream, now));
      if (plan.kind === 'duplicate') {
        const last = liveEvents(stream, now).find((event) => event.revision === plan.lastRevision);
        return { nextRevision: plan.lastRevision, position: encodeSequencePosition(last?.sequence ?? 0) };
      }
      // Serialise first: a batch that is not JSON fails before anything is written.
      const serialised = events.map(serialiseEvent);
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
      this.state.signal.notify(streamId);
      return { nextRevision: target.revision, position: encodeSequencePosition(this.state.lastSequence) };
    });
  }

  readStream(streamId: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.run(() => {
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

  readStreamRevision(streamId: string): Promise<number | 'no_stream'> {
    return this.lifecycle.run(() => {
      const events = liveEvents(this.state.streams.get(streamId), this.clock().getTime());
      return events.at(-1)?.revision ?? 'no_stream';
    });
  }

  truncateStreamBefore(streamId: string, beforeRevision: number): Promise<void> {
    return this.lifecycle.run(() => {
      const stream = this.state.streams.get(streamId);
      if (stream !== undefined) cutBefore(stream, beforeRevision);
    });
  }

  readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.run(
      () => this.readPage(options.after, options.streamPrefixes, options.maxCount).events,
    );
  }

  readAllPage(options: port.ReadAllOptions = {}): Promise<port.ReadAllPage> {
    return this.lifecycle.run(() => this.readPage(options.after, options.streamPrefixes, options.maxCount));
  }

  subscribe(options: port.SubscribeOptions): Promise<port.Subscription> {
    const checkpoints = this.state.checkpoints;
    return subscribePolling(
      this.lifecycle,
      {
        readPage: (after, prefixes, limit) => {
          this.logReads++;
          return this.readPage(after, prefixes, limit);
        },
        readCheckpoint: (id) => checkpoints.get(id),
        storeCheckpoint: (id, position) => void checkpoints.set(id, position),
        signal: this.state.signal,
      },
      options,
    );
  }

  subscribeLive(options: port.LiveSubscribeOptions): Promise<port.Subscription> {
    return subscribeLivePolling(
      this.lifecycle,
      {
        readPage: (after, prefixes, limit) => {
          this.logReads++;
          return this.readPage(after, prefixes, limit);
        },
        head: () => encodeSequencePosition(this.state.lastSequence),
        signal: this.state.signal,
      },
      options,
    );
  }

  /** How many times this store's subscriptions read the log: a diagnostic, and what the contract counts wake-ups by. */
  get subscriptionReads(): number {
    return this.logReads;
  }

  readCheckpoint(subscriptionId: string): Promise<port.Position | undefined> {
    return this.lifecycle.run(() => this.state.checkpoints.get(subscriptionId));
  }

  ping(): Promise<void> {
    return this.lifecycle.run(() => undefined);
  }

  close(): Promise<void> {
    return this.lifecycle.close();
  }

  private readPage(
    after: port.Position | undefined,
    prefixes: readonly string[] | undefined,
    limit = Number.POSITIVE_INFINITY,
  ): { events: port.RecordedEvent[]; scannedTo: port.Position | undefined } {
    const now = this.clock().getTime();
    const log = this.state.log;
    const afterSequence = after === undefined ? 0 : decodeSequencePosition(after);
    const events: port.RecordedEvent[] = [];
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
}

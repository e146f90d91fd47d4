import {
  type AppendStreamState,
  type KurrentDBClient,
  type WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { randomUUID } from 'node:crypto';
import type * as port from '../event-store.port';
import { WrongExpectedVersionError } from '../event-store.port';
import { StoreLifecycle } from '../store-lifecycle';
import { collect } from './collect';
import { encodeEsdbPosition } from './eventstoredb-position';
import { kurrent } from './kurrent-client';
import { readAllFromEsdb } from './eventstoredb-read-all';
import { subscribeLiveToEsdb } from './eventstoredb-live-subscription';
import { subscribeToEsdb } from './eventstoredb-subscription';
import { CHECKPOINT_STREAM_PREFIX, toRecordedEvent } from './to-recorded-event';

/** The production event store. Idempotent appends, expiry and $all ordering are EventStoreDB's own. */
export class EventStoreDbEventStore implements port.EventStore, port.StreamTruncation {
  private readonly lifecycle = new StoreLifecycle();

  constructor(private readonly client: KurrentDBClient) {}

  /** For example `kurrentdb://localhost:2113?tls=false` (the deprecated `esdb://` is still read). */
  static fromConnectionString(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(kurrent().KurrentDBClient.connectionString(connectionString));
  }

  append(streamId: string, events: port.NewEvent[], options: port.AppendOptions): Promise<port.AppendResult> {
    return this.lifecycle.whenOpen(async () => {
      // EventStoreDB accepts an empty append; the other stores reject it, so this one does too.
      if (events.length === 0)
        throw new RangeError(`append to ${streamId}: a batch needs at least one event`);
      const result = await this.client
        .appendToStream(
          streamId,
          events.map((event) =>
            kurrent().jsonEvent({
              id: event.id,
              type: event.type,
              data: event.data,
              metadata: event.metadata ?? {},
            }),
          ),
          { streamState: toEsdbExpectedRevision(options.expectedRevision) },
        )
        .catch((error: unknown) => {
          throw error instanceof kurrent().WrongExpectedVersionError
            ? toWrongExpectedVersion(streamId, options, error)
            : error;
        });
      const nextRevision = Number(result.nextExpectedRevision);
      // Settings go on the append that created the stream (or its retry); a failure here rejects the append,
      // and the retry with the same ids is a no-op that sets them again.
      const created = nextRevision === events.length - 1;
      if (created && (options.maxAgeSeconds !== undefined || options.maxCount !== undefined)) {
        await this.client.setStreamMetadata(streamId, {
          maxAge: options.maxAgeSeconds,
          maxCount: options.maxCount,
        });
      }
      // For a single event the returned position is the event's own; for a batch it is the batch's start,
      // so the last event is read back to return its position, as the other stores do.
      const position =
        events.length === 1 && result.position !== undefined
          ? encodeEsdbPosition(result.position)
          : await this.positionOf(streamId, nextRevision);
      return { nextRevision, position };
    });
  }

  readStream(streamId: string, options: port.ReadStreamOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.whenOpen(async () => {
      const backwards = options.direction === 'backwards';
      const { BACKWARDS, END, FORWARDS, START, StreamDeletedError, StreamNotFoundError } = kurrent();
      const defaultStart = backwards ? END : START;
      try {
        const read = this.client.readStream(streamId, {
          direction: backwards ? BACKWARDS : FORWARDS,
          fromRevision: options.fromRevision === undefined ? defaultStart : BigInt(options.fromRevision),
          maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
        });
        return (await collect(read)).flatMap((resolved) =>
          resolved.event ? [toRecordedEvent(resolved.event)] : [],
        );
      } catch (error) {
        if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
        throw error;
      }
    });
  }

  readStreamRevision(streamId: string): Promise<number | 'no_stream'> {
    // The newest event only: EventStoreDB has no cheaper call that also hides expired events (maxAge).
    return this.readStream(streamId, { direction: 'backwards', maxCount: 1 }).then(
      ([last]) => last?.revision ?? 'no_stream',
    );
  }

  /**
   * EventStoreDB's own truncation: the stream's `$tb` metadata (truncateBefore), merged into what the metadata holds
   * (maxAge, maxCount), at the metastream's revision read, so two truncations never lose each other's cut (the later
   * re-reads and keeps the higher). Reads hide the events at once (and StreamVisibility does for $all); a scavenge
   * deletes them.
   */
  truncateStreamBefore(streamId: string, beforeRevision: number): Promise<void> {
    return this.lifecycle.whenOpen(async () => {
      if ((await this.readStreamRevision(streamId)) === 'no_stream') return;
      for (let attempt = 0; ; attempt++) {
        const { metadata, metastreamRevision } = await this.client.getStreamMetadata(streamId);
        const current = typeof metadata?.truncateBefore === 'number' ? metadata.truncateBefore : 0;
        if (current >= beforeRevision) return;
        try {
          await this.client.setStreamMetadata(
            streamId,
            { ...metadata, truncateBefore: beforeRevision },
            { expectedRevision: metastreamRevision ?? kurrent().NO_STREAM },
          );
          return;
        } catch (error) {
          if (!(error instanceof kurrent().WrongExpectedVersionError) || attempt >= 5) throw error;
        }
      }
    });
  }

  readAll(options: port.ReadAllOptions = {}): Promise<port.RecordedEvent[]> {
    return this.lifecycle.whenOpen(async () => (await readAllFromEsdb(this.client, options)).events);
  }

  readAllPage(options: port.ReadAllOptions = {}): Promise<port.ReadAllPage> {
    return this.lifecycle.whenOpen(() => readAllFromEsdb(this.client, options));
  }

  subscribe(options: port.SubscribeOptions): Promise<port.Subscription> {
    return this.lifecycle.whenOpen(async () => {
      const checkpoints = {
        read: (id: string) => this.readCheckpoint(id),
        store: async (id: string, position: port.Position) => {
          await this.append(
            checkpointStream(id),
            [{ id: randomUUID(), type: 'CheckpointStored', data: { position } }],
            {
              expectedRevision: 'any',
              maxCount: 1,
            },
          );
        },
      };
      const subscription = await subscribeToEsdb(this.client, checkpoints, options);
      return this.lifecycle.track(subscription);
    });
  }

  subscribeLive(options: port.LiveSubscribeOptions): Promise<port.Subscription> {
    return this.lifecycle.whenOpen(async () =>
      this.lifecycle.track(await subscribeLiveToEsdb(this.client, options)),
    );
  }

  readCheckpoint(subscriptionId: string): Promise<port.Position | undefined> {
    return this.lifecycle.whenOpen(async () => {
      const [last] = await this.readStream(checkpointStream(subscriptionId), {
        direction: 'backwards',
        maxCount: 1,
      });
      const position = last?.data.position;
      return typeof position === 'string' ? position : undefined;
    });
  }

  ping(): Promise<void> {
    return this.lifecycle.whenOpen(async () => {
      const { BACKWARDS, END } = kurrent();
      await collect(this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }));
    });
  }

  close(): Promise<void> {
    return this.lifecycle.close(() => this.client.dispose());
  }

  private async positionOf(streamId: string, revision: number): Promise<port.Position> {
    const [event] = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (event === undefined)
      throw new Error(`event ${revision} of ${streamId} is not readable right after its append`);
    return event.position;
  }
}

function checkpointStream(subscriptionId: string): string {
  return `${CHECKPOINT_STREAM_PREFIX}${subscriptionId}`;
}

function toEsdbExpectedRevision(expected: port.ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'no_stream':
      return kurrent().NO_STREAM;
    case 'any':
      return kurrent().ANY;
    default:
      return BigInt(expected);
  }
}

function toWrongExpectedVersion(
  streamId: string,
  options: port.AppendOptions,
  error: EsdbWrongExpectedVersionError,
): WrongExpectedVersionError {
  const actual =
    error.actualState === kurrent().NO_STREAM || error.actualState < 0n
      ? 'no_stream'
      : Number(error.actualState);
  return new WrongExpectedVersionError(streamId, options.expectedRevision, actual);
}

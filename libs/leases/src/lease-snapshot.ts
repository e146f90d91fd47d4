import { randomUUID } from 'node:crypto';
import { type EventStore, type RecordedEvent, WrongExpectedVersionError } from '@svc/event-store';
import { evolveLease } from './evolve-lease';
import { LEASE_EVENT_TYPES, type LeaseEvent } from './lease.events';
import { initialLeaseState, type LeaseState } from './lease.state';
import { LEASE_STREAM_MAX_COUNT, leaseStreamId } from './lease-streams';

/** A shard's lease as read, with the revision to append at so that a concurrent change is detected. */
export interface LeaseSnapshot {
  shard: number;
  state: LeaseState;
  revision: number | 'no_stream';
}

export async function readLease(store: EventStore, group: string, shard: number): Promise<LeaseSnapshot> {
  // The newest event states the whole lease (see LeaseEvent), so one event is enough.
  const [last] = await store.readStream(leaseStreamId(group, shard), { direction: 'backwards', maxCount: 1 });
  if (last === undefined) return { shard, state: initialLeaseState, revision: 'no_stream' };
  const event = toLeaseEvent(last);
  const state = event === null ? initialLeaseState : evolveLease(initialLeaseState, event);
  return { shard, state, revision: last.revision };
}

/**
 * Appends a decision at the revision it was made on. False when another instance appended first: the decision
 * is stale and nothing was written. Each renewal is a new fact, so event ids are random.
 */
export async function appendLease(
  store: EventStore,
  group: string,
  snapshot: LeaseSnapshot,
  events: readonly LeaseEvent[],
): Promise<boolean> {
  try {
    await store.append(
      leaseStreamId(group, snapshot.shard),
      events.map((event) => ({ id: randomUUID(), type: event.type, data: { ...event.data } })),
      { expectedRevision: snapshot.revision, maxCount: LEASE_STREAM_MAX_COUNT },
    );
    return true;
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) return false;
    throw error;
  }
}

function toLeaseEvent(recorded: RecordedEvent): LeaseEvent | null {
  return LEASE_EVENT_TYPES.has(recorded.type)
    ? ({ type: recorded.type, data: recorded.data } as unknown as LeaseEvent)
    : null;
}

import {
  aggregateStream,
  type EventStore,
  handleCommand,
  TooManyConcurrentAppendsError,
} from '@svc/event-store';
import { type LeaseCommand } from './lease.commands';
import { leaseDecider } from './lease.decider';
import { type LeaseState } from './lease.state';
import { LEASE_STREAM_MAX_COUNT, leaseStreamId, NEWEST_EVENT } from './lease-streams';
import { LeaseRefusedError } from './lease-refused.error';

/** A shard's lease as it is now. The newest event states the whole lease (see LeaseEvent): one event is enough. */
export async function readLease(store: EventStore, group: string, shard: number): Promise<LeaseState> {
  return (await aggregateStream(store, leaseStreamId(group, shard), leaseDecider, NEWEST_EVENT)).state;
}

/**
 * Runs a lease command on the shard's lease as it is now. False when it is refused, or when another instance
 * appended between the read and the append: the decision is stale and nothing was written. It is not decided
 * again on the newer lease (the next round does that, with a fresh plan). Each renewal is a new fact, so event ids
 * derive from the owner and the time.
 */
export async function commandLease(
  store: EventStore,
  group: string,
  shard: number,
  command: LeaseCommand,
): Promise<boolean> {
  const { owner, now } = command.data;
  try {
    await handleCommand(store, leaseStreamId(group, shard), leaseDecider, command, {
      stepId: `${owner}@${now}`,
      maxRetries: 0,
      read: NEWEST_EVENT,
      maxCount: LEASE_STREAM_MAX_COUNT,
    });
    return true;
  } catch (error) {
    if (error instanceof LeaseRefusedError || error instanceof TooManyConcurrentAppendsError) return false;
    throw error;
  }
}

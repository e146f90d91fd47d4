import { aggregateStream, type EventStore, handleCommand } from '@svc/event-store';
import { type MemberCommand } from './member.commands';
import { membersDecider } from './members.decider';
import { membersAlive } from './members.state';
import { MEMBERS_STREAM_MAX_COUNT, membersStreamId, NEWEST_EVENT } from './lease-streams';

/**
 * Members never conflict: a lost race only means another member's event went in first, so the append is decided
 * again, as often as a group can have members all heartbeating at once.
 */
const MEMBER_APPEND_RETRIES = 100;

/**
 * Appends one member event. Heartbeats and leaves do not depend on who else is listed, so only the newest event
 * is read: it gives the revision to append at.
 */
async function commandMembers(
  store: EventStore,
  group: string,
  command: MemberCommand,
  stepId: string,
): Promise<void> {
  await handleCommand(store, membersStreamId(group), membersDecider, command, {
    stepId,
    read: NEWEST_EVENT,
    maxRetries: MEMBER_APPEND_RETRIES,
    maxCount: MEMBERS_STREAM_MAX_COUNT,
  });
}

export function sendHeartbeat(store: EventStore, group: string, owner: string, until: number): Promise<void> {
  return commandMembers(
    store,
    group,
    { type: 'Heartbeat', data: { owner, until } },
    `heartbeat:${owner}@${until}`,
  );
}

export function announceLeave(store: EventStore, group: string, owner: string): Promise<void> {
  return commandMembers(store, group, { type: 'Leave', data: { owner } }, `leave:${owner}`);
}

export async function readLiveMembers(store: EventStore, group: string, now: number): Promise<string[]> {
  const { state } = await aggregateStream(store, membersStreamId(group), membersDecider);
  return membersAlive(state, now);
}

import { randomUUID } from 'node:crypto';
import { type EventStore } from '@svc/event-store';
import { liveMembers } from './live-members';
import { MEMBER_EVENT_TYPES, type MemberEvent } from './member.events';
import { MEMBERS_STREAM_MAX_COUNT, membersStreamId } from './lease-streams';

/** Appends one member event; members never conflict, so the append expects any revision. */
async function appendMember(store: EventStore, group: string, event: MemberEvent): Promise<void> {
  await store.append(
    membersStreamId(group),
    [{ id: randomUUID(), type: event.type, data: { ...event.data } }],
    { expectedRevision: 'any', maxCount: MEMBERS_STREAM_MAX_COUNT },
  );
}

export function sendHeartbeat(store: EventStore, group: string, owner: string, until: number): Promise<void> {
  return appendMember(store, group, { type: 'MemberHeartbeat', data: { owner, until } });
}

export function announceLeave(store: EventStore, group: string, owner: string): Promise<void> {
  return appendMember(store, group, { type: 'MemberLeft', data: { owner } });
}

export async function readLiveMembers(store: EventStore, group: string, now: number): Promise<string[]> {
  const recorded = await store.readStream(membersStreamId(group));
  const events = recorded
    .filter((event) => MEMBER_EVENT_TYPES.has(event.type))
    .map((event) => ({ type: event.type, data: event.data }) as unknown as MemberEvent);
  return liveMembers(events, now);
}

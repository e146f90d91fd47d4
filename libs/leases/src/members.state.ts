import { MEMBER_EVENT_TYPES, type MemberEvent } from './member.events';

/** Per owner: the end of its longest heartbeat, and whether its latest event is a leave. */
export type MembersState = ReadonlyMap<string, { until: number; left: boolean }>;

export const initialMembersState: MembersState = new Map();

export function evolveMembers(state: MembersState, event: MemberEvent): MembersState {
  // A type this version does not know (a newer version's) says nothing about who takes part.
  if (!MEMBER_EVENT_TYPES.has(event.type)) return state;
  const { owner } = event.data;
  const until = state.get(owner)?.until ?? 0;
  switch (event.type) {
    case 'MemberHeartbeat':
      // Heartbeats may land out of order (appended by racing rounds): the longest one counts.
      return new Map(state).set(owner, { until: Math.max(until, event.data.until), left: false });
    case 'MemberLeft':
      return new Map(state).set(owner, { until, left: true });
  }
}

/**
 * The owners alive at `now`, sorted: those with a heartbeat whose `until` is after `now`, except those whose
 * latest event is MemberLeft (an instance that heartbeats again after leaving has rejoined).
 */
export function membersAlive(state: MembersState, now: number): string[] {
  return [...state]
    .filter(([, member]) => member.until > now && !member.left)
    .map(([owner]) => owner)
    .sort();
}

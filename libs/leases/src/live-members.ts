import { type MemberEvent } from './member.events';
import { evolveMembers, initialMembersState, membersAlive } from './members.state';

/** The owners alive at `now` after these member events, sorted (see membersAlive). */
export function liveMembers(events: readonly MemberEvent[], now: number): string[] {
  return membersAlive(events.reduce(evolveMembers, initialMembersState), now);
}

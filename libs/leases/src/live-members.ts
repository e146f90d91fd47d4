import { type MemberEvent } from './member.events';

/**
 * The owners alive at `now`, sorted: those with a heartbeat whose `until` is after `now`, except those whose
 * latest event is MemberLeft (an instance that heartbeats again after leaving has rejoined).
 */
export function liveMembers(events: readonly MemberEvent[], now: number): string[] {
  const until = new Map<string, number>();
  const left = new Set<string>();
  for (const event of events) {
    const { owner } = event.data;
    switch (event.type) {
      case 'MemberHeartbeat':
        until.set(owner, Math.max(until.get(owner) ?? 0, event.data.until));
        left.delete(owner);
        break;
      case 'MemberLeft':
        left.add(owner);
        break;
    }
  }
  return [...until]
    .filter(([owner, last]) => last > now && !left.has(owner))
    .map(([owner]) => owner)
    .sort();
}

import { liveMembers } from './live-members';
import { type MemberEvent } from './member.events';

const heartbeat = (owner: string, until: number): MemberEvent => ({
  type: 'MemberHeartbeat',
  data: { owner, until },
});
const left = (owner: string): MemberEvent => ({ type: 'MemberLeft', data: { owner } });

describe('liveMembers', () => {
  it('lists each owner with a heartbeat still running once, sorted', () => {
    const events = [heartbeat('b', 200), heartbeat('a', 150), heartbeat('b', 250), heartbeat('c', 300)];
    expect(liveMembers(events, 100)).toEqual(['a', 'b', 'c']);
  });

  it('drops an owner once its latest heartbeat has run out', () => {
    const events = [heartbeat('a', 150), heartbeat('b', 200), heartbeat('a', 170)];
    expect(liveMembers(events, 169)).toEqual(['a', 'b']);
    expect(liveMembers(events, 170)).toEqual(['b']);
  });

  it('counts the longest heartbeat of an owner, whatever the order they were appended in', () => {
    expect(liveMembers([heartbeat('a', 300), heartbeat('a', 150)], 200)).toEqual(['a']);
  });

  it('drops an owner whose latest event is MemberLeft, heartbeat or not', () => {
    expect(liveMembers([heartbeat('a', 300), heartbeat('b', 300), left('a')], 100)).toEqual(['b']);
  });

  it('counts an owner that heartbeats again after leaving (a restart under the same id)', () => {
    expect(liveMembers([heartbeat('a', 300), left('a'), heartbeat('a', 400)], 100)).toEqual(['a']);
  });

  it('is empty without events', () => {
    expect(liveMembers([], 0)).toEqual([]);
  });
});

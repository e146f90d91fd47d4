import { deciderSpec } from '@svc/testing';
import { type MemberCommand } from './member.commands';
import { type MemberEvent } from './member.events';
import { membersDecider } from './members.decider';
import { membersAlive } from './members.state';

const members = deciderSpec(membersDecider);
const heartbeat = (owner: string, until: number): MemberEvent => ({
  type: 'MemberHeartbeat',
  data: { owner, until },
});
const left = (owner: string): MemberEvent => ({ type: 'MemberLeft', data: { owner } });
const beat = (owner: string, until: number): MemberCommand => ({ type: 'Heartbeat', data: { owner, until } });
const leave = (owner: string): MemberCommand => ({ type: 'Leave', data: { owner } });
const fold = (events: MemberEvent[]) => events.reduce(membersDecider.evolve, membersDecider.initialState);

describe('the members decider', () => {
  it('records a heartbeat, whoever is listed already', () => {
    members
      .given([])
      .when(beat('a', 300))
      .then([heartbeat('a', 300)]);
    members
      .given([heartbeat('a', 300), heartbeat('b', 200), left('b')])
      .when(beat('a', 400))
      .then([heartbeat('a', 400)]);
  });

  it('records a leave, also of an owner never listed', () => {
    members
      .given([heartbeat('a', 300)])
      .when(leave('a'))
      .then([left('a')]);
    members
      .given([])
      .when(leave('b'))
      .then([left('b')]);
  });

  it('folds each owner to its longest heartbeat and whether it left since', () => {
    expect(fold([heartbeat('a', 300), heartbeat('a', 150), heartbeat('b', 200), left('b')])).toEqual(
      new Map([
        ['a', { until: 300, left: false }],
        ['b', { until: 200, left: true }],
      ]),
    );
  });

  it('ignores an event type it does not know (written by a newer version)', () => {
    const unknown = { type: 'MemberPaused', data: { owner: 'a' } } as unknown as MemberEvent;
    expect(membersAlive(fold([heartbeat('a', 300), unknown]), 100)).toEqual(['a']);
  });

  it('tells the command seam which stored events it folds: its own types, with data an object', () => {
    expect(membersDecider.knownEventTypes?.has('MemberPaused')).toBe(false);
    expect([heartbeat('a', 300), left('a')].every((e) => membersDecider.isEvent?.(e))).toBe(true);
    expect(membersDecider.isEvent?.({ type: 'MemberLeft', data: 'a' })).toBe(false);
  });
});

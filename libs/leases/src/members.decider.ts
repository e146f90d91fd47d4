import { type Decider } from '@svc/contract';
import { type MemberCommand } from './member.commands';
import { type MemberEvent, memberEventShapes } from './member.events';
import { evolveMembers, initialMembersState, type MembersState } from './members.state';

/** Heartbeats and leaves are facts about the sender alone: never refused, whoever else is listed. */
export function decideMembers(command: MemberCommand): MemberEvent[] {
  switch (command.type) {
    case 'Heartbeat':
      return [{ type: 'MemberHeartbeat', data: command.data }];
    case 'Leave':
      return [{ type: 'MemberLeft', data: command.data }];
  }
}

/** The members stream's rules (`lease-<group>-members`), as the command seam runs them. */
export const membersDecider: Decider<MembersState, MemberCommand, MemberEvent> = {
  name: 'members',
  initialState: initialMembersState,
  evolve: evolveMembers,
  decide: decideMembers,
  ...memberEventShapes,
};

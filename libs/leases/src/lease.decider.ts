import { type Decider } from '@svc/contract';
import { decideLease } from './decide-lease';
import { evolveLease } from './evolve-lease';
import { type LeaseCommand } from './lease.commands';
import { type LeaseEvent, leaseEventShapes } from './lease.events';
import { initialLeaseState, type LeaseState } from './lease.state';

/** The lease stream's rules (`lease-<group>-<shard>`), as the command seam runs them. */
export const leaseDecider: Decider<LeaseState, LeaseCommand, LeaseEvent> = {
  name: 'lease',
  initialState: initialLeaseState,
  evolve: evolveLease,
  decide: decideLease,
  ...leaseEventShapes,
};

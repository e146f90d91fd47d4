import { type LeaseState } from './lease.state';
import { planRebalance } from './plan-rebalance';

const NOW = 1_000_000;
const free: LeaseState = { owner: null, until: 0 };
const live = (owner: string): LeaseState => ({ owner, until: NOW + 1 });
const expired = (owner: string): LeaseState => ({ owner, until: NOW });

describe('planRebalance', () => {
  it('takes free shards lowest first when holding none', () => {
    expect(planRebalance([free, free, free], 'a', NOW, 3)).toEqual({
      renew: [],
      release: [],
      acquire: [0, 1, 2],
    });
  });

  it('renews mine within the share and releases the extras highest first', () => {
    const leases = [live('a'), live('a'), live('b'), expired('a'), live('a')];
    expect(planRebalance(leases, 'a', NOW, 2)).toEqual({ renew: [0, 1], release: [4, 3], acquire: [] });
  });

  it('counts another owner’s lease as takeable once it has ended, never before', () => {
    const leases = [live('b'), expired('b'), free];
    expect(planRebalance(leases, 'a', NOW, 3)).toEqual({ renew: [], release: [], acquire: [1, 2] });
  });

  it('renews my own lease even when it has ended, since nobody took it', () => {
    expect(planRebalance([expired('a'), live('b')], 'a', NOW, 1)).toEqual({
      renew: [0],
      release: [],
      acquire: [],
    });
  });
});

import { BodyBudget } from './body-budget';
import { trustedPeer } from './trusted-peer';

describe('BodyBudget', () => {
  it("refuses one client past its share while another client's bytes are still taken", () => {
    const budget = new BodyBudget({ perClientBytes: 100, totalBytes: 250 });
    expect(budget.take('a', 60)).toBeNull();
    expect(budget.take('a', 41)).toBe('client');
    expect(budget.take('b', 100)).toBeNull();
    expect(budget.heldBytes).toBe(160);
  });

  it('refuses everyone past the total, and takes again once bytes are given back', () => {
    const budget = new BodyBudget({ perClientBytes: 100, totalBytes: 150 });
    expect(budget.take('a', 100)).toBeNull();
    expect(budget.take('b', 51)).toBe('total');
    budget.give('a', 100);
    expect(budget.take('b', 51)).toBeNull();
    expect([budget.heldBytes, budget.clients]).toEqual([51, 1]);
  });

  it('forgets a client once it holds nothing', () => {
    const budget = new BodyBudget({ perClientBytes: 100, totalBytes: 1000 });
    for (const client of ['a', 'b', 'c']) budget.take(client, 10);
    for (const client of ['a', 'b', 'c']) budget.give(client, 10);
    expect([budget.heldBytes, budget.clients]).toEqual([0, 0]);
  });
});

describe('trustedPeer', () => {
  it('trusts no peer without TRUST_PROXY, every peer with a hop count, and the listed ones with a list', () => {
    expect(trustedPeer(false)('10.0.0.1')).toBe(false);
    expect(trustedPeer(1)('203.0.113.9')).toBe(true);
    const listed = trustedPeer(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    expect(['10.1.2.3', '::ffff:10.1.2.3', '192.0.2.7', 'fd12::1'].map(listed)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['192.0.2.8', '203.0.113.9', '2001:db8::1', ''].map(listed)).toEqual([false, false, false, false]);
  });
});

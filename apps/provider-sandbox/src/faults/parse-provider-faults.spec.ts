import { parseProviderFaults } from './parse-provider-faults';

describe('parseProviderFaults: the CCTP switch (docs/sandbox.md "CCTP-routed Across legs")', () => {
  it('takes cctp and batchMintsMs', () => {
    expect(parseProviderFaults({ provider: 'across', cctp: true, batchMintsMs: 6000 })).toEqual([
      { provider: 'across', cctp: true, batchMintsMs: 6000 },
    ]);
  });

  it.each([
    [{ provider: 'across', cctp: 'yes' }, 'cctp: must be a boolean'],
    [{ provider: 'across', batchMintsMs: -1 }, 'batchMintsMs: must be a non-negative integer'],
    [{ provider: 'across', batchMintsMs: 1.5 }, 'batchMintsMs: must be a non-negative integer'],
    [{ provider: 'across', cctpRoute: true }, 'cctpRoute: unknown fault field'],
  ])('refuses %j', (fault, message) => {
    expect(() => parseProviderFaults(fault)).toThrow(message);
  });
});

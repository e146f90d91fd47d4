import { readTrackingContext } from './read-tracking-context';

describe('readTrackingContext', () => {
  it.each([
    { provider: 'relay', requestId: '0xabc', originChainId: 1, destinationChainId: 8453 },
    { provider: 'across', originChainId: 42161, destinationChainId: 8453 },
    { provider: 'mayan', fromChain: 'ethereum', toChain: 'base', targetDecimals: 6 },
  ])('types the stored context of %j', (stored) => {
    expect(readTrackingContext({ ...stored })).toEqual(stored);
  });

  it("keeps a Mayan leg's Swift contract when it is an address (N12), and reads an older leg without it", () => {
    const stored = { provider: 'mayan', fromChain: 'ethereum', toChain: 'base', targetDecimals: 6 };
    const swiftContract = '0xC38e4e6A15593f908255214653d3D947CA1c2338';
    expect(readTrackingContext({ ...stored, swiftContract })).toEqual({ ...stored, swiftContract });
    expect(readTrackingContext({ ...stored, swiftContract: 'not-an-address' })).toEqual(stored);
  });

  it('keeps only the fields the provider uses', () => {
    expect(
      readTrackingContext({ provider: 'across', originChainId: 1, destinationChainId: 10, extra: 'x' }),
    ).toEqual({ provider: 'across', originChainId: 1, destinationChainId: 10 });
  });

  it.each([
    {},
    { provider: 'direct' },
    { provider: 'relay', originChainId: 1, destinationChainId: 8453 },
    { provider: 'relay', requestId: '', originChainId: 1, destinationChainId: 8453 },
    { provider: 'across', originChainId: '1', destinationChainId: 8453 },
    { provider: 'mayan', fromChain: 'ethereum', toChain: 'base' },
  ])('is null for %j, which is no provider context', (stored) => {
    expect(readTrackingContext(stored)).toBeNull();
  });
});

import { readTrackingContext } from './read-tracking-context';

describe('readTrackingContext', () => {
  it.each([
    { provider: 'relay', requestId: '0xabc', originChainId: 1, destinationChainId: 8453 },
    { provider: 'across', originChainId: 42161, destinationChainId: 8453 },
    { provider: 'mayan', fromChain: 'ethereum', toChain: 'base', targetDecimals: 6 },
  ])('types the stored context of %j', (stored) => {
    expect(readTrackingContext({ ...stored })).toEqual(stored);
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

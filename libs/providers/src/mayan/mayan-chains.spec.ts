import { evmChainIdOfWormhole, mayanChain } from './mayan-chains';

describe('mayanChain', () => {
  it.each([
    [1, 'ethereum', 2],
    [8453, 'base', 30],
    [42161, 'arbitrum', 23],
    [10, 'optimism', 24],
    [137, 'polygon', 5],
    [56, 'bsc', 4],
    [43114, 'avalanche', 6],
  ])('%s → %s (Wormhole %s)', (chainId, name, wormholeId) => {
    expect(mayanChain(chainId)).toEqual({ name, wormholeId });
  });

  it('an EVM chain Mayan does not serve → null', () => {
    expect(mayanChain(324)).toBeNull();
  });
});

describe('evmChainIdOfWormhole', () => {
  it.each([
    ['23', 42161],
    ['30', 8453],
    [2, 1],
  ])('Wormhole %s → EVM chain %s', (wormholeId, chainId) => {
    expect(evmChainIdOfWormhole(wormholeId)).toBe(chainId);
  });

  it.each([['1'], ['21'], [''], [null], [undefined], ['23a']])(
    'a non-EVM or unreadable Wormhole id (%s) → null',
    (wormholeId) => {
      expect(evmChainIdOfWormhole(wormholeId)).toBeNull();
    },
  );
});

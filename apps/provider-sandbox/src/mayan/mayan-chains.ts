/**
 * Mayan names chains in its quote API and uses Wormhole ids in contracts and the explorer (reference §3.7);
 * the sandbox chains keep their mainnet ids, so they keep their Mayan names too.
 */
const MAYAN_CHAINS: readonly { chainId: number; name: string; wormholeId: number }[] = [
  { chainId: 1, name: 'ethereum', wormholeId: 2 },
  { chainId: 8453, name: 'base', wormholeId: 30 },
  { chainId: 42161, name: 'arbitrum', wormholeId: 23 },
  { chainId: 10, name: 'optimism', wormholeId: 24 },
  { chainId: 137, name: 'polygon', wormholeId: 5 },
];

export function mayanChainByName(name: string): { chainId: number; wormholeId: number } | undefined {
  return MAYAN_CHAINS.find((c) => c.name === name);
}

export function mayanChainById(chainId: number): { name: string; wormholeId: number } | undefined {
  return MAYAN_CHAINS.find((c) => c.chainId === chainId);
}

export function chainIdByWormholeId(wormholeId: number): number | undefined {
  return MAYAN_CHAINS.find((c) => c.wormholeId === wormholeId)?.chainId;
}

/** A chain as Mayan names it: the quote API takes `name`, contracts and the explorer use `wormholeId`. */
export interface MayanChain {
  name: string;
  wormholeId: number;
}

/** EVM chain id → Mayan chain (reference/providers.md §3.7, SDK `utils.ts`). */
const MAYAN_EVM_CHAINS: ReadonlyMap<number, MayanChain> = new Map([
  [1, { name: 'ethereum', wormholeId: 2 }],
  [56, { name: 'bsc', wormholeId: 4 }],
  [137, { name: 'polygon', wormholeId: 5 }],
  [43114, { name: 'avalanche', wormholeId: 6 }],
  [42161, { name: 'arbitrum', wormholeId: 23 }],
  [10, { name: 'optimism', wormholeId: 24 }],
  [8453, { name: 'base', wormholeId: 30 }],
  [59144, { name: 'linea', wormholeId: 38 }],
  [130, { name: 'unichain', wormholeId: 44 }],
  [999, { name: 'hyperevm', wormholeId: 47 }],
  [143, { name: 'monad', wormholeId: 48 }],
  [146, { name: 'sonic', wormholeId: 52 }],
]);

export function mayanChain(evmChainId: number): MayanChain | null {
  return MAYAN_EVM_CHAINS.get(evmChainId) ?? null;
}

/** Wormhole chain id (the explorer sends it as a string, e.g. `refundChain: "23"`) → EVM chain id; null if not EVM. */
export function evmChainIdOfWormhole(wormholeId: unknown): number | null {
  const id = typeof wormholeId === 'string' && /^[0-9]+$/.test(wormholeId) ? Number(wormholeId) : wormholeId;
  if (typeof id !== 'number') return null;
  for (const [evmChainId, chain] of MAYAN_EVM_CHAINS) if (chain.wormholeId === id) return evmChainId;
  return null;
}

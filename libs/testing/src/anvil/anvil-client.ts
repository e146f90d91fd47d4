import { createTestClient, defineChain, http, publicActions, walletActions } from 'viem';

/**
 * A viem client for an anvil node with test (anvil_*), public and wallet actions, polling fast so that waiting for
 * a receipt on an automining node takes milliseconds.
 */
export function createAnvilClient(anvil: { chainId: number; rpcUrl: string }) {
  const chain = defineChain({
    id: anvil.chainId,
    name: `anvil-${anvil.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  return createTestClient({ mode: 'anvil', chain, transport: http(anvil.rpcUrl), pollingInterval: 20 })
    .extend(publicActions)
    .extend(walletActions);
}

export type AnvilClient = ReturnType<typeof createAnvilClient>;

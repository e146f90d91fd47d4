import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type SandboxManifestView } from './sandbox-process';

/**
 * One sandbox key's clients on one sandbox chain, from the manifest: its account, a wallet client that signs with it
 * and a reader polling every 50 ms (the sandbox mines at once).
 */
export function sandboxWalletClients(
  manifest: Pick<SandboxManifestView, 'chains'>,
  chainId: number,
  privateKey: string,
) {
  const entry = manifest.chains.find((c) => c.chainId === chainId);
  if (entry === undefined) throw new Error(`the sandbox runs no chain ${chainId}`);
  const chain = defineChain({
    id: chainId,
    name: entry.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [entry.rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey as Hex);
  return {
    account,
    client: createWalletClient({ account, chain, transport: http(entry.rpcUrl) }),
    reader: createPublicClient({ chain, transport: http(entry.rpcUrl), pollingInterval: 50 }),
  };
}

/**
 * Sends prepared transactions from the wallet one at a time, in order, each waited for: what a wallet does with a
 * chain action's `transactions`. Returns their hashes.
 */
export async function sendInOrder(
  { client, reader }: Pick<ReturnType<typeof sandboxWalletClients>, 'client' | 'reader'>,
  transactions: readonly { to: Hex; data: Hex; value: string }[],
): Promise<Hex[]> {
  const hashes: Hex[] = [];
  for (const tx of transactions) {
    const hash = await client.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: 500_000n,
    });
    await reader.waitForTransactionReceipt({ hash });
    hashes.push(hash);
  }
  return hashes;
}

/**
 * The file in a data folder naming the sandbox chains its events belong to. `npm start` writes it
 * (tools/dev/chain-run-data.ts); the audit reads it before it checks events against chains (tools/audit/chain-run).
 */
export const CHAIN_RUN_FILE = 'sandbox-chain-run.json';

/**
 * The chains of one sandbox run: each chain's genesis block hash by chain id. Anvil stamps genesis with its start
 * time (in seconds), so a fresh chain of the same id has another genesis hash, while its transaction hashes repeat.
 */
export type ChainRun = Record<string, string>;

/** Reads each chain's genesis block hash over JSON-RPC (throws naming the chain when one has none). */
export async function readChainRun(
  chains: readonly { chainId: number; rpcUrl: string }[],
): Promise<ChainRun> {
  const run: ChainRun = {};
  for (const { chainId, rpcUrl } of chains) {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x0', false] }),
      signal: AbortSignal.timeout(5000),
    });
    const { result } = (await res.json()) as { result?: { hash?: string } };
    if (!result?.hash) throw new Error(`chain ${chainId} at ${rpcUrl} has no genesis block`);
    run[String(chainId)] = result.hash;
  }
  return run;
}

/** A sandbox chain as the admin routes reach it: its id and its node's RPC URL. */
export interface ReorgableChain {
  chainId: number;
  rpcUrl: string;
}

/** The deepest reorganisation the sandbox performs on request: deeper than any confirmation policy it is used with. */
export const MAX_REORG_DEPTH = 64;

export class ReorgRequestError extends Error {
  override readonly name = 'ReorgRequestError' as const;
}

/**
 * Reorganises a sandbox chain on request (issue 24 item 6, S17): the last `depth` blocks are replaced by as many empty
 * ones (anvil's `anvil_reorg` with no transactions), so every transaction they held is gone: no receipt, the senders'
 * nonces back where they were. Send a transaction again to have it mined anew. Returns the new head.
 */
export async function reorgChain(
  chains: readonly ReorgableChain[],
  body: unknown,
): Promise<{ chainId: number; depth: number; blockNumber: number; blockHash: string }> {
  const { chainId, depth } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  const chain = chains.find((c) => c.chainId === chainId);
  if (chain === undefined) {
    throw new ReorgRequestError(`chainId: must be one of ${chains.map((c) => c.chainId).join(', ')}`);
  }
  if (typeof depth !== 'number' || !Number.isSafeInteger(depth) || depth < 1 || depth > MAX_REORG_DEPTH) {
    throw new ReorgRequestError(`depth: must be an integer from 1 to ${MAX_REORG_DEPTH}`);
  }
  const head = await rpc<string>(chain.rpcUrl, 'eth_blockNumber', []);
  if (BigInt(head) < BigInt(depth))
    throw new ReorgRequestError(`depth: the chain has only ${BigInt(head)} blocks`);
  await rpc(chain.rpcUrl, 'anvil_reorg', [depth, []]);
  const latest = await rpc<{ number: string; hash: string }>(chain.rpcUrl, 'eth_getBlockByNumber', [
    'latest',
    false,
  ]);
  return { chainId: chain.chainId, depth, blockNumber: Number(latest.number), blockHash: latest.hash };
}

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const reply = (await response.json()) as { result?: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

import { type ChainClient, type ChainRegistry, readFinalBlock } from '@svc/chains';
import { BlockNotFoundError } from 'viem';
import { getBlock } from 'viem/actions';
import { type NodeBlocks } from '../tracker/confirmation-schedule';

/**
 * Every node of the chain (ChainRegistry.quorum) read once for a head's confirmation checks: its final block under
 * the chain's policy, then its block at each height asked (hash and transaction hashes), concurrently. One read per
 * height and node serves every leg seen at that height (ConfirmationWatcher). A node that fails is one `ok: false`,
 * never a throw: the quorum decides; a height the node has no block at is null.
 */
export async function readBlocksOnQuorum(
  chains: ChainRegistry,
  chainId: number,
  heights: readonly bigint[],
): Promise<{ nodes: NodeBlocks[]; quorum: number }> {
  const { nodes, quorum } = chains.quorum(chainId);
  const policy = chains.confirmationPolicy(chainId);
  const read = async (node: ChainClient): Promise<NodeBlocks> => {
    try {
      // The final block first (as readTxFinality): a block read after it can only be deeper, never final too early.
      const finalBlock = await readFinalBlock(node, policy);
      const blocks = new Map(
        await Promise.all(heights.map(async (height) => [height, await blockAt(node, height)] as const)),
      );
      return { ok: true, finalBlock, blocks };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  };
  return { nodes: await Promise.all(nodes.map(read)), quorum };
}

async function blockAt(
  node: ChainClient,
  height: bigint,
): Promise<{ hash: string; transactions: ReadonlySet<string> } | null> {
  try {
    const block = await getBlock(node, { blockNumber: height });
    return {
      hash: block.hash.toLowerCase(),
      transactions: new Set(block.transactions.map((hash) => hash.toLowerCase())),
    };
  } catch (err) {
    if (err instanceof BlockNotFoundError) return null;
    throw err;
  }
}

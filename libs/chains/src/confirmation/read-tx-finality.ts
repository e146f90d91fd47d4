import { type Hash } from 'viem';
import { getBlock, getBlockNumber } from 'viem/actions';
import { ChainRpcError } from '../errors/chain-rpc-error';
import { readReceipt } from '../transactions/read-receipt';
import { type ChainClient, type ChainRegistry } from '../registry/chain-registry';
import { type ConfirmationPolicy } from './confirmation-policy';

/**
 * What one node says of a transaction: where it is mined (null: the node has no receipt, it is not or no longer on
 * its chain), and the node's final block under the chain's policy (a transaction at or below it is final).
 */
export type NodeTxView =
  | {
      ok: true;
      receipt: { blockNumber: bigint; blockHash: string; success: boolean } | null;
      finalBlock: bigint;
    }
  | { ok: false; error: string };

/** Every node's view of one transaction, and the quorum the chain is configured with. */
export interface TxFinalityViews {
  views: NodeTxView[];
  quorum: number;
}

/**
 * Asks every node of the chain (ChainRegistry.quorum: rpcUrl and rpcUrls) for the transaction's receipt and its
 * final block, concurrently; a node that fails is one `ok: false` view, never a throw: the quorum decides
 * (libs/domain decideTxFinality).
 */
export async function readTxFinality(
  chains: ChainRegistry,
  { chainId, txHash }: { chainId: number; txHash: string },
): Promise<TxFinalityViews> {
  const { nodes, quorum } = chains.quorum(chainId);
  const policy = chains.confirmationPolicy(chainId);
  const views = await Promise.all(nodes.map((node) => nodeView(node, policy, txHash as Hash)));
  return { views, quorum };
}

async function nodeView(node: ChainClient, policy: ConfirmationPolicy, hash: Hash): Promise<NodeTxView> {
  try {
    // The final block first: a receipt read after it can only be deeper, never counted final too early.
    const finalBlock = await readFinalBlock(node, policy);
    const receipt = await readReceipt(node, { hash });
    return {
      ok: true,
      finalBlock,
      receipt:
        receipt === null
          ? null
          : {
              blockNumber: receipt.blockNumber,
              blockHash: receipt.blockHash.toLowerCase(),
              success: receipt.status === 'success',
            },
    };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The highest block the policy counts as final on this node: latest − blocks, or the node's safe/finalized head. */
export async function readFinalBlock(node: ChainClient, policy: ConfirmationPolicy): Promise<bigint> {
  try {
    if ('tag' in policy) return (await getBlock(node, { blockTag: policy.tag })).number;
    return (await getBlockNumber(node, { cacheTime: 0 })) - BigInt(policy.blocks);
  } catch (err) {
    throw new ChainRpcError(node, `final block (${'tag' in policy ? policy.tag : 'latest'})`, err);
  }
}

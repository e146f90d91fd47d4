import { type ChainRegistry } from '@svc/chains';
import { type FillRead } from '@svc/domain';
import { type Address, type Hash, zeroAddress } from 'viem';
import { readSettledAmount } from '../observe/read-settled-amount';

/**
 * What `to` received of `token` in transaction `txHash` on `chainId`, read from the chain: exact, unreadable (the
 * node lags, the transaction reverted, or native value moved by a contract the node cannot trace), or
 * chain_unreadable when the service is not configured for the chain.
 */
export async function readDelivery(
  chains: ChainRegistry,
  { chainId, txHash, to, token }: { chainId: number; txHash: string; to: string; token: string },
): Promise<FillRead> {
  if (!chains.has(chainId)) return { basis: 'chain_unreadable' };
  const read = await readSettledAmount(chains.client(chainId), {
    fillTxHash: txHash as Hash,
    recipient: to as Address,
    token: token.toLowerCase() === zeroAddress ? zeroAddress : (token as Address),
  });
  return read.basis === 'exact' ? { basis: 'exact', amount: read.amount.toString() } : read;
}

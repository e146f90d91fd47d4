import {
  TransactionNotFoundError,
  type Chain,
  type Client,
  type Hash,
  type Transaction,
  type Transport,
} from 'viem';
import { getTransaction } from 'viem/actions';
import { ChainRpcError } from '../errors/chain-rpc-error';

export interface ReadTransactionParameters {
  hash: Hash;
}

/**
 * The transaction, pending (`blockNumber` null) or mined; null when the node does not know the hash. Throws
 * ChainRpcError when the node fails.
 */
export async function readTransaction(
  client: Client<Transport, Chain | undefined>,
  { hash }: ReadTransactionParameters,
): Promise<Transaction | null> {
  try {
    return await getTransaction(client, { hash });
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return null;
    throw new ChainRpcError(client, `eth_getTransactionByHash(${hash})`, err);
  }
}

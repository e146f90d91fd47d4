import {
  TransactionReceiptNotFoundError,
  type Chain,
  type Client,
  type Hash,
  type TransactionReceipt,
  type Transport,
} from 'viem';
import { getTransactionReceipt } from 'viem/actions';
import { ChainRpcError } from '../errors/chain-rpc-error';

export interface ReadReceiptParameters {
  hash: Hash;
}

/** The receipt of a mined transaction; null when it is not mined (unknown or pending). Throws ChainRpcError. */
export async function readReceipt(
  client: Client<Transport, Chain | undefined>,
  { hash }: ReadReceiptParameters,
): Promise<TransactionReceipt | null> {
  try {
    return await getTransactionReceipt(client, { hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw new ChainRpcError(client, `eth_getTransactionReceipt(${hash})`, err);
  }
}

import type { Address, Client } from 'viem';
import { getBalance } from 'viem/actions';
import { ChainRpcError } from '../errors/chain-rpc-error';

export interface ReadNativeBalanceParameters {
  owner: Address;
  blockNumber?: bigint;
}

/** The native balance in wei. Throws ChainRpcError when the node fails. */
export async function readNativeBalance(
  client: Client,
  { owner, blockNumber }: ReadNativeBalanceParameters,
): Promise<bigint> {
  try {
    return await getBalance(
      client,
      blockNumber === undefined ? { address: owner } : { address: owner, blockNumber },
    );
  } catch (err) {
    throw new ChainRpcError(client, `eth_getBalance(${owner})`, err);
  }
}

import { erc20Abi, type Address, type Client } from 'viem';
import { readContract } from 'viem/actions';
import { Erc20CallError } from '../errors/erc20-call-error';

export interface ReadErc20MetadataParameters {
  token: Address;
}

export interface Erc20Metadata {
  name: string;
  symbol: string;
  decimals: number;
}

/**
 * Reads `name()`, `symbol()` and `decimals()`. Throws Erc20CallError when the address is not an ERC-20 (tokens that
 * return bytes32 names, like MKR, count as not an ERC-20 here), ChainRpcError when the node fails.
 */
export async function readErc20Metadata(
  client: Client,
  { token }: ReadErc20MetadataParameters,
): Promise<Erc20Metadata> {
  const read = async <const F extends 'name' | 'symbol' | 'decimals'>(functionName: F) => {
    try {
      return await readContract(client, { address: token, abi: erc20Abi, functionName });
    } catch (err) {
      throw Erc20CallError.from(client, token, functionName, err);
    }
  };
  const [name, symbol, decimals] = await Promise.all([read('name'), read('symbol'), read('decimals')]);
  return { name, symbol, decimals };
}

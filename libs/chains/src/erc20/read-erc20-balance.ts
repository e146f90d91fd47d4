import { erc20Abi, type Address, type Client } from 'viem';
import { readContract } from 'viem/actions';
import { Erc20CallError } from '../errors/erc20-call-error';

export interface ReadErc20BalanceParameters {
  token: Address;
  owner: Address;
  /** Read at this block instead of the latest. */
  blockNumber?: bigint;
}

/** `balanceOf(owner)` in base units. Throws Erc20CallError (not an ERC-20) or ChainRpcError (node failure). */
export async function readErc20Balance(
  client: Client,
  { token, owner, blockNumber }: ReadErc20BalanceParameters,
): Promise<bigint> {
  try {
    return await readContract(client, {
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
      blockNumber,
    });
  } catch (err) {
    throw Erc20CallError.from(client, token, 'balanceOf', err);
  }
}

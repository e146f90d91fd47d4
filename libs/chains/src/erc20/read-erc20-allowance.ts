import { erc20Abi, type Address, type Client } from 'viem';
import { readContract } from 'viem/actions';
import { Erc20CallError } from '../errors/erc20-call-error';

export interface ReadErc20AllowanceParameters {
  token: Address;
  owner: Address;
  spender: Address;
}

/** `allowance(owner, spender)` in base units. Throws Erc20CallError or ChainRpcError. */
export async function readErc20Allowance(
  client: Client,
  { token, owner, spender }: ReadErc20AllowanceParameters,
): Promise<bigint> {
  try {
    return await readContract(client, {
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, spender],
    });
  } catch (err) {
    throw Erc20CallError.from(client, token, 'allowance', err);
  }
}

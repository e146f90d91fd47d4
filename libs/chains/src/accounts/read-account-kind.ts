import { getAddress, type Address, type Client } from 'viem';
import { getCode } from 'viem/actions';
import { ChainRpcError } from '../errors/chain-rpc-error';

export interface ReadAccountKindParameters {
  address: Address;
}

export type AccountKind = { kind: 'eoa' } | { kind: 'eip7702'; delegate: Address } | { kind: 'contract' };

// EIP-7702 delegation designator: 0xef0100 followed by the 20-byte delegate address (23 bytes in all).
const DELEGATION_PREFIX = '0xef0100';
const DELEGATION_LENGTH = 2 + 2 * 23;

/**
 * What sits at an address: no code is an EOA, a delegation designator is an EIP-7702 account (an EOA running the
 * delegate's code), any other code is a contract. Throws ChainRpcError when the node fails.
 */
export async function readAccountKind(
  client: Client,
  { address }: ReadAccountKindParameters,
): Promise<AccountKind> {
  let code: string | undefined;
  try {
    code = await getCode(client, { address });
  } catch (err) {
    throw new ChainRpcError(client, `eth_getCode(${address})`, err);
  }
  if (!code || code === '0x') return { kind: 'eoa' };
  const lower = code.toLowerCase();
  if (lower.length === DELEGATION_LENGTH && lower.startsWith(DELEGATION_PREFIX)) {
    return { kind: 'eip7702', delegate: getAddress(`0x${lower.slice(DELEGATION_PREFIX.length)}`) };
  }
  return { kind: 'contract' };
}

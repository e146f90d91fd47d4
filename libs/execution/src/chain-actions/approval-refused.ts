import { ChainRpcError } from '@svc/chains';
import {
  BaseError,
  ExecutionRevertedError,
  RawContractError,
  hexToBigInt,
  size,
  type Address,
  type Client,
  type Hex,
} from 'viem';
import { call } from 'viem/actions';

/**
 * Simulates the approval as the wallet would send it (`eth_call` from the wallet) and says whether the token
 * refuses it: a revert (USDT refuses to move a non-zero allowance to another non-zero value), or an explicit
 * `false` (tokens that report failure instead of reverting). A node fault is a ChainRpcError, never a refusal.
 */
export async function approvalRefused(
  client: Client,
  { wallet, token, data }: { wallet: Address; token: Address; data: Hex },
): Promise<boolean> {
  try {
    const result = await call(client, { account: wallet, to: token, data });
    return result.data !== undefined && size(result.data) === 32 && hexToBigInt(result.data) === 0n;
  } catch (err) {
    if (isRevert(err)) return true;
    throw new ChainRpcError(client, `approve() simulation on ${token}`, err);
  }
}

function isRevert(err: unknown): boolean {
  return (
    err instanceof BaseError &&
    err.walk((e) => e instanceof ExecutionRevertedError || e instanceof RawContractError) !== null
  );
}

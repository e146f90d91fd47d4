import {
  erc20Abi,
  getAddress,
  isAddressEqual,
  parseEventLogs,
  type Address,
  type Client,
  type Hash,
} from 'viem';
import { TransactionNotMinedError } from '../errors/transaction-not-mined-error';
import { readReceipt } from '../transactions/read-receipt';

export interface ReadErc20TransfersParameters {
  hash: Hash;
  /** Only transfers of this token (the emitting contract). */
  token?: Address;
  /** Only transfers to this address. */
  to?: Address;
  /** Only transfers from this address. */
  from?: Address;
}

export interface Erc20Transfer {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
  logIndex: number;
}

/**
 * The ERC-20 `Transfer` events of a mined transaction, in log order, with checksummed addresses. ERC-721 transfers (same signature, the token
 * id indexed) do not decode as ERC-20 and are left out; a reverted transaction has none. Throws
 * TransactionNotMinedError when there is no receipt, ChainRpcError when the node fails.
 */
export async function readErc20Transfers(
  client: Client,
  { hash, token, to, from }: ReadErc20TransfersParameters,
): Promise<Erc20Transfer[]> {
  const receipt = await readReceipt(client, { hash });
  if (!receipt) throw new TransactionNotMinedError(hash, client.chain?.id);
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    .filter(
      (log) =>
        (!token || isAddressEqual(log.address, token)) &&
        (!to || isAddressEqual(log.args.to, to)) &&
        (!from || isAddressEqual(log.args.from, from)),
    )
    .map((log) => ({
      token: getAddress(log.address),
      from: log.args.from,
      to: log.args.to,
      value: log.args.value,
      logIndex: log.logIndex,
    }));
}

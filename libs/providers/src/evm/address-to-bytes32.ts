import { type Address, type Hex, pad } from 'viem';

/** Wormhole-style universal address: the 20-byte EVM address left-padded to 32 bytes. */
export function addressToBytes32(address: Address): Hex {
  return pad(address.toLowerCase() as Hex, { size: 32 });
}

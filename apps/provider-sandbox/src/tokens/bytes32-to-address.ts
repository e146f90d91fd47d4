import { getAddress, slice, type Address, type Hex } from 'viem';

/** Mayan carries EVM addresses left-padded to bytes32 (Wormhole's universal address). */
export function bytes32ToAddress(value: Hex): Address {
  return getAddress(slice(value, 12));
}

import { randomBytes } from 'node:crypto';
import { bytesToHex, type Hex } from 'viem';

/** A random `0x…` id of `bytes` bytes: Relay request ids are bytes32, the other ids are shorter. */
export function randomId(bytes = 32): Hex {
  return bytesToHex(randomBytes(bytes));
}

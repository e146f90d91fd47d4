import { randomBytes } from 'node:crypto';
import { type Hex, bytesToHex } from 'viem';

/** 32 random bytes for `message.nonce`: makes every authorization distinct even over identical calls. */
export function randomNonce(): Hex {
  return bytesToHex(randomBytes(32));
}

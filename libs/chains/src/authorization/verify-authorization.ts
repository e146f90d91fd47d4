import { type WalletAuthorizationTypedData } from '@svc/contract';
import { type Hex } from 'viem';
import { recoverAuthorizationSigner } from './recover-authorization-signer';

/** spec: a 65-byte ECDSA signature, 0x followed by 130 hex characters. */
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Whether `wallet`'s key signed the typed data. Partners report the signature, so anything malformed or signed by
 * another key is a plain `false`, never an exception. Only EOA (and EIP-7702) signatures recover this way; an
 * ERC-1271 contract-wallet signature never matches.
 */
export async function verifyAuthorization(
  typedData: WalletAuthorizationTypedData,
  signature: string,
  wallet: string,
): Promise<boolean> {
  if (!SIGNATURE.test(signature)) return false;
  try {
    const signer = await recoverAuthorizationSigner(typedData, signature as Hex);
    return signer.toLowerCase() === wallet.toLowerCase();
  } catch {
    // Bad r/s values or recovery byte: the signature is unusable, which is all the caller needs to know.
    return false;
  }
}

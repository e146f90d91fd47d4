import { type WalletAuthorizationTypedData } from '@svc/contract';
import { type Address, type Hex, type TypedData, recoverTypedDataAddress } from 'viem';

/**
 * The address whose key produced `signature` over the typed data as it was handed out. Throws on a malformed
 * signature; `verifyAuthorization` is the non-throwing check.
 */
export async function recoverAuthorizationSigner(
  typedData: WalletAuthorizationTypedData,
  signature: Hex,
): Promise<Address> {
  return recoverTypedDataAddress({
    domain: typedData.domain,
    // The contract types field types as plain strings; viem's literal field-type union cannot be proven of them.
    types: typedData.types as TypedData,
    primaryType: typedData.primaryType,
    // A copy is a plain object type, which viem's index-signature message type accepts; the interface is not.
    message: { ...typedData.message },
    signature,
  });
}

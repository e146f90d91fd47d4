/**
 * An authorization field the EIP-712 encoding would reject or silently reinterpret (a wallet that is not an
 * address, a nonce or commitment that is not 32 bytes, an expiry that is not whole Unix seconds). Raised when
 * building, so a prepare never hands out typed data no wallet can sign.
 */
export class WalletAuthorizationError extends Error {
  override readonly name = 'WalletAuthorizationError';
}

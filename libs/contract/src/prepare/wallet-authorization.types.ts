/** The spec's neutral name for the EIP-712 primary type the wallet signs. */
export const WALLET_AUTHORIZATION_PRIMARY_TYPE = 'ServiceExecutionAuthorization';

/**
 * The `types` of the authorization, fields in signing order with the types the spec gives (`wallet`
 * address, `executionCommitment` and `nonce` bytes32, `expiresAt` uint256, the others string). No
 * EIP712Domain entry: raw signers derive it from the domain, which carries only name and version.
 */
export const WALLET_AUTHORIZATION_TYPES = {
  [WALLET_AUTHORIZATION_PRIMARY_TYPE]: [
    { name: 'partnerId', type: 'string' },
    { name: 'intentSessionId', type: 'string' },
    { name: 'attemptId', type: 'string' },
    { name: 'wallet', type: 'address' },
    { name: 'recipient', type: 'string' },
    { name: 'executionCommitment', type: 'bytes32' },
    { name: 'nonce', type: 'bytes32' },
    { name: 'expiresAt', type: 'uint256' },
  ],
} as const;

export interface TypedDataField {
  name: string;
  type: string;
}

/** spec: walletAuthorization message fields. */
export interface WalletAuthorizationMessage {
  partnerId: string;
  intentSessionId: string;
  attemptId: string;
  wallet: string;
  recipient: string;
  /** bytes32, 0x-prefixed hex. */
  executionCommitment: string;
  /** bytes32, 0x-prefixed hex. */
  nonce: string;
  /** Unix seconds: the authorization's own validity, far longer than the attempt's expiresAt. */
  expiresAt: number;
}

/** spec: PrepareResponse.walletAuthorization: EIP-712 typed data, signed exactly as returned. */
export interface WalletAuthorizationTypedData {
  domain: { name: string; version: string };
  types: Record<string, readonly TypedDataField[]>;
  primaryType: string;
  message: WalletAuthorizationMessage;
}

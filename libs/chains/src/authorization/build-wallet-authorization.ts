import {
  WALLET_AUTHORIZATION_PRIMARY_TYPE,
  WALLET_AUTHORIZATION_TYPES,
  type WalletAuthorizationTypedData,
} from '@svc/contract';
import { type Hex, getAddress, isAddress, isHex, size } from 'viem';
import { WalletAuthorizationError } from './wallet-authorization.error';

/**
 * Name and version only. A chainId would tie the signature to one chain while the calls span several, and there is
 * no verifying contract: the service checks the signature off-chain.
 */
export const WALLET_AUTHORIZATION_DOMAIN = { name: 'Intent Service Execution', version: '1' } as const;

export interface BuildWalletAuthorizationParams {
  partnerId: string;
  intentSessionId: string;
  attemptId: string;
  wallet: string;
  recipient: string;
  /** From `executionCommitment(chainActions)` over the chain actions of the same response. */
  executionCommitment: Hex;
  /** 32 bytes from `randomNonce()`. */
  nonce: Hex;
  /** Unix seconds. */
  expiresAt: number;
}

/** The PrepareResponse `walletAuthorization`: EIP-712 typed data the wallet signs exactly as returned. */
export function buildWalletAuthorization(
  params: BuildWalletAuthorizationParams,
  domain: { name: string; version: string } = WALLET_AUTHORIZATION_DOMAIN,
): WalletAuthorizationTypedData {
  if (!isAddress(params.wallet, { strict: false })) {
    throw new WalletAuthorizationError('wallet is not an address');
  }
  assertBytes32(params.executionCommitment, 'executionCommitment');
  assertBytes32(params.nonce, 'nonce');
  if (!Number.isSafeInteger(params.expiresAt) || params.expiresAt <= 0) {
    throw new WalletAuthorizationError('expiresAt must be whole Unix seconds');
  }
  return {
    // Copied field by field: any further field would change the derived EIP712Domain type and the hash.
    domain: { name: domain.name, version: domain.version },
    types: WALLET_AUTHORIZATION_TYPES,
    primaryType: WALLET_AUTHORIZATION_PRIMARY_TYPE,
    message: {
      partnerId: params.partnerId,
      intentSessionId: params.intentSessionId,
      attemptId: params.attemptId,
      // Checksummed, as viem and ethers reject a mixed-case address whose checksum is wrong.
      wallet: getAddress(params.wallet),
      recipient: params.recipient,
      executionCommitment: params.executionCommitment.toLowerCase(),
      nonce: params.nonce.toLowerCase(),
      expiresAt: params.expiresAt,
    },
  };
}

function assertBytes32(value: string, field: string): void {
  if (!isHex(value, { strict: true }) || value.length !== 66 || size(value) !== 32) {
    throw new WalletAuthorizationError(`${field} must be 32 bytes of 0x-prefixed hex`);
  }
}

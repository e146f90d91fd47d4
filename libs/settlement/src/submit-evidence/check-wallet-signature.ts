import { type ChainRegistry, verifyAuthorization } from '@svc/chains';
import { type AttemptRecord } from '@svc/domain';
import { type Address } from 'viem';
import { type AccountKindCache } from './account-kind-cache';

export type SignatureCheck =
  | { ok: true; signer: string }
  | {
      ok: false;
      code: 'wallet_authorization_expired' | 'contract_wallet_unsupported' | 'wallet_authorization_invalid';
      message: string;
    };

/**
 * A signature is recorded only while its authorization is valid (message.expiresAt, Unix seconds, exclusive), and
 * only from an EOA or EIP-7702 signer: a wallet with contract code (not a 7702 delegation) on any chain of the
 * attempt is refused; then the EIP-712 signature must recover to the attempt's wallet over the authorization
 * exactly as prepared. A chain this deployment has no RPC for cannot be read, so it is not checked for code; an
 * ERC-1271 signature never recovers to the wallet, so a contract wallet is still refused there, as invalid.
 */
export async function checkWalletSignature(
  record: AttemptRecord,
  signature: string,
  deps: { chains: ChainRegistry; accountKinds: AccountKindCache; now: number },
): Promise<SignatureCheck> {
  const { walletAuthorization, chainActions } = record.prepared;
  const expiresAt = walletAuthorization.message.expiresAt;
  if (deps.now >= expiresAt * 1000) {
    return {
      ok: false,
      code: 'wallet_authorization_expired',
      message: `the wallet authorization expired at ${new Date(expiresAt * 1000).toISOString()}; report the evidence without walletAuthorization`,
    };
  }
  const wallet = record.prepared.wallet as Address;
  for (const chainId of new Set(chainActions.map((a) => a.chainId))) {
    if (!deps.chains.has(chainId)) continue;
    const kind = await deps.accountKinds.read(chainId, wallet, deps.now);
    if (kind.kind === 'contract') {
      return {
        ok: false,
        code: 'contract_wallet_unsupported',
        message:
          'contract-wallet (ERC-1271) signatures are not supported; sign with an EOA or EIP-7702 account',
      };
    }
  }
  if (!(await verifyAuthorization(walletAuthorization, signature, wallet))) {
    return {
      ok: false,
      code: 'wallet_authorization_invalid',
      message: 'the signature does not recover to the attempt wallet over the prepared authorization',
    };
  }
  return { ok: true, signer: wallet };
}

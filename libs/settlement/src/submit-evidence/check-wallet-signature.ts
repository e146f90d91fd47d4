import { type ChainRegistry, readAccountKind, verifyAuthorization } from '@svc/chains';
import { type AttemptRecord } from '@svc/domain';
import { type Address } from 'viem';

export type SignatureCheck =
  | { ok: true; signer: string }
  | { ok: false; code: 'contract_wallet_unsupported' | 'wallet_authorization_invalid'; message: string };

/**
 * Only EOA and EIP-7702 signers are supported: a wallet with contract code (not a 7702 delegation) on any chain of
 * the attempt is refused before anything else; then the EIP-712 signature must recover to the attempt's wallet over
 * the authorization exactly as prepared.
 */
export async function checkWalletSignature(
  record: AttemptRecord,
  signature: string,
  chains: ChainRegistry,
): Promise<SignatureCheck> {
  const wallet = record.prepared.wallet as Address;
  for (const chainId of new Set(record.prepared.chainActions.map((a) => a.chainId))) {
    if (!chains.has(chainId)) continue;
    const kind = await readAccountKind(chains.client(chainId), { address: wallet });
    if (kind.kind === 'contract') {
      return {
        ok: false,
        code: 'contract_wallet_unsupported',
        message:
          'contract-wallet (ERC-1271) signatures are not supported; sign with an EOA or EIP-7702 account',
      };
    }
  }
  if (!(await verifyAuthorization(record.prepared.walletAuthorization, signature, wallet))) {
    return {
      ok: false,
      code: 'wallet_authorization_invalid',
      message: 'the signature does not recover to the attempt wallet over the prepared authorization',
    };
  }
  return { ok: true, signer: wallet };
}

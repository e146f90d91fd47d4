import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { WALLET_AUTHORIZATION_PRIMARY_TYPE, WALLET_AUTHORIZATION_TYPES } from '@svc/contract';
import { ANVIL_ACCOUNTS } from '@svc/testing';

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * The EIP-712 `walletAuthorization` of a real prepare response (captured from a run on the sandbox by
 * `npm run openapi:capture`), signed with anvil's public development keys by viem's `signTypedData`, the signer of
 * the TypeScript wallet part (`@intent-service/partner-client/viem`, libs/testing's wallet part). An SDK's wallet part
 * must produce the same 65 bytes (v = 27 or 28), as eth_signTypedData_v4 does. Throws when the captured typed data no
 * longer has the contract's types.
 */
export async function walletAuthorizationVectors(): Promise<object> {
  const captured = JSON.parse(
    readFileSync(join(REPO_ROOT, 'tools/openapi/examples/captured.json'), 'utf8'),
  ) as { prepareResponse: { walletAuthorization: { primaryType: string; types: unknown } } };
  const walletAuthorization = captured.prepareResponse.walletAuthorization;
  if (
    walletAuthorization.primaryType !== WALLET_AUTHORIZATION_PRIMARY_TYPE ||
    JSON.stringify(walletAuthorization.types) !== JSON.stringify(WALLET_AUTHORIZATION_TYPES)
  )
    throw new Error('the captured walletAuthorization does not have the types of libs/contract');
  const cases = [];
  // anvil's development accounts 0 and 1: the sandbox's funded users 0 and 1.
  for (const [user, { privateKey }] of ANVIL_ACCOUNTS.slice(0, 2).entries()) {
    const account = privateKeyToAccount(privateKey);
    cases.push({
      name: `sandbox-user-${user}`,
      privateKey,
      address: account.address,
      walletAuthorization,
      signature: await account.signTypedData(
        walletAuthorization as unknown as Parameters<typeof account.signTypedData>[0],
      ),
    });
  }
  return {
    description:
      "A prepare response's walletAuthorization (EIP-712 typed data, signed exactly as returned: no EIP712Domain in `types`, the domain has only name and version) and its signature by each key, as viem's signTypedData / eth_signTypedData_v4 produce it (65 bytes, v = 27 or 28).",
    cases,
  };
}

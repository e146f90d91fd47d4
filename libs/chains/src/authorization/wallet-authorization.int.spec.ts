import { type WalletAuthorizationTypedData } from '@svc/contract';
import { type Hex, type TypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_ACCOUNTS, type AnvilInstance, startAnvil } from '@svc/testing';
import { buildWalletAuthorization } from './build-wallet-authorization';
import { executionCommitment } from './execution-commitment';
import { randomNonce } from './random-nonce';
import { recoverAuthorizationSigner } from './recover-authorization-signer';
import { verifyAuthorization } from './verify-authorization';

const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[2].privateKey);
const stranger = ANVIL_ACCOUNTS[3].address;

const typedData = buildWalletAuthorization({
  partnerId: 'partner-1',
  intentSessionId: 'is_01J0000000000000000000000',
  attemptId: 'at_01J0000000000000000000000',
  wallet: wallet.address,
  recipient: wallet.address,
  executionCommitment: executionCommitment([]),
  nonce: randomNonce(),
  expiresAt: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
});

/** EIP-712's fixed field order for the domain type; a raw signer declares only the fields the domain carries. */
const DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
] as const;

/** What spec step 2 asks of a client with a raw signing call: add EIP712Domain from the domain's own fields. */
function withDomainType(data: { domain: object; types: object; primaryType: string; message: object }) {
  const EIP712Domain = DOMAIN_FIELDS.filter((field) => field.name in data.domain);
  return { ...data, types: { EIP712Domain, ...data.types } };
}

describe('wallet authorization signatures, signed by a real anvil node', () => {
  let anvil: AnvilInstance;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
  });
  afterAll(() => anvil?.stop());

  /** `eth_signTypedData_v4` as a browser wallet receives it: the typed data as a JSON string. */
  async function signRaw(address: string, data: object): Promise<Hex> {
    const res = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_signTypedData_v4',
        params: [address, JSON.stringify(data)],
      }),
    });
    const body = (await res.json()) as { result?: Hex; error?: { message: string } };
    if (!body.result) throw new Error(`eth_signTypedData_v4: ${body.error?.message ?? 'no result'}`);
    return body.result;
  }

  function signViem(data: WalletAuthorizationTypedData | ReturnType<typeof withDomain>): Promise<Hex> {
    return wallet.signTypedData({
      domain: data.domain,
      types: data.types as TypedData,
      primaryType: data.primaryType,
      message: { ...data.message },
    });
  }

  function withDomain(extra: object) {
    return { ...typedData, domain: { ...typedData.domain, ...extra } };
  }

  it('the typed data as returned, with EIP712Domain added mechanically, signs to the wallet', async () => {
    const raw = await signRaw(wallet.address, withDomainType(typedData));
    expect(await recoverAuthorizationSigner(typedData, raw)).toBe(wallet.address);
    expect(await verifyAuthorization(typedData, raw, wallet.address)).toBe(true);
  });

  it('viem signTypedData with the domain as given produces the same signature', async () => {
    const raw = await signRaw(wallet.address, withDomainType(typedData));
    const local = await signViem(typedData);
    expect(local).toBe(raw);
    expect(await verifyAuthorization(typedData, local, wallet.address)).toBe(true);
  });

  it.each([
    ['a chainId', { chainId: 8453 }],
    ['a verifyingContract', { verifyingContract: '0x4200000000000000000000000000000000000006' }],
  ])('adding %s to the domain gives a signature that does not recover to the wallet', async (_, extra) => {
    const raw = await signRaw(wallet.address, withDomainType(withDomain(extra)));
    const local = await signViem(withDomain(extra));
    expect(local).toBe(raw);
    expect(await recoverAuthorizationSigner(typedData, raw)).not.toBe(wallet.address);
    expect(await verifyAuthorization(typedData, raw, wallet.address)).toBe(false);
  });

  it("another account's signature is refused", async () => {
    const raw = await signRaw(stranger, withDomainType(typedData));
    expect(await recoverAuthorizationSigner(typedData, raw)).toBe(stranger);
    expect(await verifyAuthorization(typedData, raw, wallet.address)).toBe(false);
  });
});

import { type Hex, type TypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_ACCOUNTS } from '@svc/testing';
import { buildWalletAuthorization } from './build-wallet-authorization';
import { recoverAuthorizationSigner } from './recover-authorization-signer';
import { verifyAuthorization } from './verify-authorization';

const owner = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const stranger = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);
const typedData = buildWalletAuthorization({
  partnerId: 'partner-1',
  intentSessionId: 'is_1',
  attemptId: 'at_1',
  wallet: owner.address,
  recipient: owner.address,
  executionCommitment: `0x${'ab'.repeat(32)}`,
  nonce: `0x${'01'.repeat(32)}`,
  expiresAt: 1_900_000_000,
});

// viem derives EIP712Domain from the domain's fields when `types` lacks it, as the spec tells clients to.
const signWith = (account: typeof owner, data = typedData) =>
  account.signTypedData({ ...data, types: data.types as TypedData, message: { ...data.message } });

describe('verifyAuthorization', () => {
  it("accepts the wallet's signature, its address in any case", async () => {
    const signature = await signWith(owner);
    expect(await recoverAuthorizationSigner(typedData, signature)).toBe(owner.address);
    expect(await verifyAuthorization(typedData, signature, owner.address)).toBe(true);
    expect(await verifyAuthorization(typedData, signature, owner.address.toLowerCase())).toBe(true);
    expect(
      await verifyAuthorization(typedData, signature.toUpperCase().replace('0X', '0x'), owner.address),
    ).toBe(true);
  });

  it('refuses a signature by another key', async () => {
    expect(await verifyAuthorization(typedData, await signWith(stranger), owner.address)).toBe(false);
  });

  it('refuses a signature over another message', async () => {
    const other = { ...typedData, message: { ...typedData.message, attemptId: 'at_2' } };
    expect(await verifyAuthorization(typedData, await signWith(owner, other), owner.address)).toBe(false);
  });

  describe('answers false, never throws, for a malformed signature', () => {
    let valid: Hex;
    beforeAll(async () => {
      valid = await signWith(owner);
    });
    const cases: [string, (sig: Hex) => string][] = [
      ['empty', () => ''],
      ['without 0x', (sig) => sig.slice(2)],
      ['64 bytes (compact form)', (sig) => sig.slice(0, 130)],
      ['66 bytes', (sig) => `${sig}00`],
      ['not hex', (sig) => `${sig.slice(0, -2)}zz`],
      ['a recovery byte of 29', (sig) => `${sig.slice(0, -2)}1d`],
      ['r of zero', (sig) => `0x${'00'.repeat(32)}${sig.slice(66)}`],
      ['s above the curve order', (sig) => `${sig.slice(0, 66)}${'ff'.repeat(32)}${sig.slice(-2)}`],
    ];
    it.each(cases)('%s', async (_, malform) => {
      await expect(verifyAuthorization(typedData, malform(valid), owner.address)).resolves.toBe(false);
    });
  });

  it('recoverAuthorizationSigner throws on a malformed signature (verifyAuthorization is the safe check)', async () => {
    await expect(recoverAuthorizationSigner(typedData, '0x1234')).rejects.toThrow();
  });
});

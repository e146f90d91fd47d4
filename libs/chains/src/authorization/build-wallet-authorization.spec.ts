import { WALLET_AUTHORIZATION_PRIMARY_TYPE, WALLET_AUTHORIZATION_TYPES } from '@svc/contract';
import {
  type BuildWalletAuthorizationParams,
  WALLET_AUTHORIZATION_DOMAIN,
  buildWalletAuthorization,
} from './build-wallet-authorization';
import { randomNonce } from './random-nonce';
import { WalletAuthorizationError } from './wallet-authorization.error';

const params: BuildWalletAuthorizationParams = {
  partnerId: 'partner-1',
  intentSessionId: 'is_1',
  attemptId: 'at_1',
  wallet: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  recipient: 'So11111111111111111111111111111111111111112',
  executionCommitment: `0x${'AB'.repeat(32)}`,
  nonce: `0x${'01'.repeat(32)}`,
  expiresAt: 1_900_000_000,
};

describe('buildWalletAuthorization', () => {
  it('returns the domain, the contract types without EIP712Domain, the primary type and the message', () => {
    expect(buildWalletAuthorization(params)).toEqual({
      domain: { name: 'Intent Service Execution', version: '1' },
      types: WALLET_AUTHORIZATION_TYPES,
      primaryType: WALLET_AUTHORIZATION_PRIMARY_TYPE,
      message: {
        ...params,
        wallet: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        executionCommitment: `0x${'ab'.repeat(32)}`,
      },
    });
    expect(Object.keys(buildWalletAuthorization(params).types)).toEqual([WALLET_AUTHORIZATION_PRIMARY_TYPE]);
  });

  it('keeps only name and version of a given domain', () => {
    const domain = { name: 'Other', version: '2', chainId: 1 };
    expect(buildWalletAuthorization(params, domain).domain).toEqual({ name: 'Other', version: '2' });
    expect(WALLET_AUTHORIZATION_DOMAIN).toEqual({ name: 'Intent Service Execution', version: '1' });
  });

  it('keeps expiresAt as Unix seconds, a JSON number', () => {
    const json = JSON.parse(JSON.stringify(buildWalletAuthorization(params)));
    expect(json.message.expiresAt).toBe(1_900_000_000);
  });

  it.each([
    ['a wallet that is not an address', { wallet: 'not-an-address' }],
    ['a 31-byte commitment', { executionCommitment: `0x${'ab'.repeat(31)}` }],
    ['a nonce without 0x', { nonce: '01'.repeat(32) }],
    ['expiresAt in milliseconds as a fraction', { expiresAt: 1_900_000_000.5 }],
    ['expiresAt zero', { expiresAt: 0 }],
  ])('refuses %s', (_, change) => {
    expect(() =>
      buildWalletAuthorization({ ...params, ...change } as BuildWalletAuthorizationParams),
    ).toThrow(WalletAuthorizationError);
  });
});

describe('randomNonce', () => {
  it('is 32 bytes of hex and differs every call', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => randomNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

import { mnemonicToAccount } from 'viem/accounts';
import { DEVELOPMENT_ACCOUNTS, isDevelopmentAccount } from './development-accounts';

describe('DEVELOPMENT_ACCOUNTS', () => {
  it("are the first twenty accounts of anvil's and Hardhat's public mnemonic", () => {
    const mnemonic = 'test test test test test test test test test test test junk';
    expect(DEVELOPMENT_ACCOUNTS).toEqual(
      Array.from({ length: 20 }, (_, i) => mnemonicToAccount(mnemonic, { addressIndex: i }).address),
    );
  });

  it('are recognised whatever the case', () => {
    expect(isDevelopmentAccount('0xA0EE7A142D267C1F36714E4A8F75612F20A79720'.toLowerCase())).toBe(true);
    expect(isDevelopmentAccount('0x1111111111111111111111111111111111111111')).toBe(false);
  });
});

import type { Address, Hex } from 'viem';
import { ANVIL_ACCOUNTS } from '@svc/testing';

export interface SandboxAccount {
  address: Address;
  privateKey: Hex;
}

export type SandboxFiller = 'relay' | 'across' | 'mayan';

export interface SandboxAccounts {
  users: SandboxAccount[];
  fillers: Record<SandboxFiller, SandboxAccount>;
  deployer: SandboxAccount;
}

const account = (i: number): SandboxAccount => ({ ...ANVIL_ACCOUNTS[i] });

/** Anvil's default dev accounts: users 0..5, one filler per provider (6, 7, 8), the deployer 9. */
export const SANDBOX_ACCOUNTS: SandboxAccounts = {
  users: [0, 1, 2, 3, 4, 5].map(account),
  fillers: { relay: account(6), across: account(7), mayan: account(8) },
  deployer: account(9),
};

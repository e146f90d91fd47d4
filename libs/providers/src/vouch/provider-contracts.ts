import { type Address } from 'viem';
import { type RoutableProvider } from '../provider-adapter.port';

/** The contracts of one provider on one chain that a wallet call may touch. */
export interface ChainContracts {
  /** Allowed `to` of every call that is not an approval (deposits, swaps, sends). */
  targets: readonly Address[];
  /** Allowed spenders of an approval: only contracts that pull from their caller, never a router anyone can drive. */
  spenders: readonly Address[];
}

/** Per EVM chain id; a chain without an entry allows nothing, so the provider cannot be used there. */
export type ContractAllowlist = ReadonlyMap<number, ChainContracts>;

export type CalldataAllowlists = Record<RoutableProvider, ContractAllowlist>;

import { ConfigError } from '@svc/platform';
import { type Address, isAddress } from 'viem';
import { ACROSS_CONTRACTS } from './across-contracts';
import { mayanContracts } from './mayan-contracts';
import { type CalldataAllowlists, type ChainContracts, type ContractAllowlist } from './provider-contracts';
import { RELAY_CONTRACTS } from './relay-contracts';

type Env = Record<string, string | undefined>;

/** One variable per provider; set, it replaces that provider's defaults entirely. */
export const CALLDATA_ALLOWLIST_VARIABLES = {
  relay: 'RELAY_CONTRACTS',
  across: 'ACROSS_CONTRACTS',
  mayan: 'MAYAN_CONTRACTS',
} as const;

/**
 * The contracts each provider's calls may touch: the published production contracts, or
 * `{"<chainId>": {"targets": ["0x…"], "spenders": ["0x…"]}, …}` from the provider's variable (a sandbox names its own).
 */
export function loadCalldataAllowlists(env: Env, defaults: { mayanForwarder: Address }): CalldataAllowlists {
  return {
    relay: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.relay) ?? RELAY_CONTRACTS,
    across: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.across) ?? ACROSS_CONTRACTS,
    mayan: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.mayan) ?? mayanContracts(defaults.mayanForwarder),
  };
}

const SHAPE = 'must be JSON {"<chainId>": {"targets": ["0x…"], "spenders": ["0x…"]}}';

function allowlist(env: Env, name: string): ContractAllowlist | null {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid(name, SHAPE);
  }
  if (!isObject(parsed)) throw invalid(name, SHAPE);
  const entries = Object.entries(parsed).map(([key, contracts]): [number, ChainContracts] => {
    if (!/^[1-9][0-9]{0,15}$/.test(key)) throw invalid(name, `"${key}" is not a chain id; ${SHAPE}`);
    if (!isObject(contracts)) throw invalid(name, `chain ${key}: ${SHAPE}`);
    return [
      Number(key),
      {
        targets: addresses(contracts.targets, name, key),
        spenders: addresses(contracts.spenders, name, key),
      },
    ];
  });
  return new Map(entries);
}

function addresses(value: unknown, name: string, chain: string): Address[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every((a): a is string => typeof a === 'string' && isAddress(a, { strict: false }))
  )
    throw invalid(name, `chain ${chain}: targets and spenders must be arrays of 20-byte hex EVM addresses`);
  return value as Address[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(name: string, rule: string): ConfigError {
  return new ConfigError(`invalid environment:\n  ${name}: ${rule}`);
}

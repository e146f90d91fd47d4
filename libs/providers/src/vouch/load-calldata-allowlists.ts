import { ConfigError } from '@svc/platform';
import { registerDecorator } from 'class-validator';
import { type Address, isAddress } from 'viem';
import { ACROSS_CONTRACTS } from './across-contracts';
import { mayanContracts } from './mayan-contracts';
import { type CalldataAllowlists, type ChainContracts, type ContractAllowlist } from './provider-contracts';
import { RELAY_CONTRACTS } from './relay-contracts';

/** One variable per provider; set, it replaces that provider's defaults entirely. */
export const CALLDATA_ALLOWLIST_VARIABLES = {
  relay: 'RELAY_CONTRACTS',
  across: 'ACROSS_CONTRACTS',
  mayan: 'MAYAN_CONTRACTS',
} as const;

type AllowlistEnv = Partial<
  Record<(typeof CALLDATA_ALLOWLIST_VARIABLES)[keyof typeof CALLDATA_ALLOWLIST_VARIABLES], string>
>;

/**
 * The contracts each provider's calls may touch: the published production contracts, or
 * `{"<chainId>": {"targets": ["0x…"], "spenders": ["0x…"]}, …}` from the provider's variable (a sandbox names its own).
 */
export function loadCalldataAllowlists(
  env: AllowlistEnv,
  defaults: { mayanForwarder: Address },
): CalldataAllowlists {
  return {
    relay: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.relay) ?? RELAY_CONTRACTS,
    across: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.across) ?? ACROSS_CONTRACTS,
    mayan: allowlist(env, CALLDATA_ALLOWLIST_VARIABLES.mayan) ?? mayanContracts(defaults.mayanForwarder),
  };
}

/** Validates a `*_CONTRACTS` variable in its DTO, with the message the loader would give. */
export function IsContractAllowlist(): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isContractAllowlist',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (value) => allowlistProblem(value) === null,
        defaultMessage: (args) => allowlistProblem(args?.value) ?? '',
      },
    });
}

const SHAPE = 'must be JSON {"<chainId>": {"targets": ["0x…"], "spenders": ["0x…"]}}';

class AllowlistProblem extends Error {
  override readonly name = 'AllowlistProblem';
}

function allowlistProblem(value: unknown): string | null {
  try {
    parseAllowlist(String(value));
    return null;
  } catch (err) {
    if (err instanceof AllowlistProblem) return err.message;
    throw err;
  }
}

function allowlist(env: AllowlistEnv, name: keyof AllowlistEnv): ContractAllowlist | null {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return null;
  try {
    return parseAllowlist(value);
  } catch (err) {
    if (err instanceof AllowlistProblem)
      throw new ConfigError(`invalid environment:\n  ${name}: ${err.message}`);
    throw err;
  }
}

function parseAllowlist(value: string): ContractAllowlist {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AllowlistProblem(SHAPE);
  }
  if (!isObject(parsed)) throw new AllowlistProblem(SHAPE);
  const entries = Object.entries(parsed).map(([key, contracts]): [number, ChainContracts] => {
    if (!/^[1-9][0-9]{0,15}$/.test(key)) throw new AllowlistProblem(`"${key}" is not a chain id; ${SHAPE}`);
    if (!isObject(contracts)) throw new AllowlistProblem(`chain ${key}: ${SHAPE}`);
    return [
      Number(key),
      { targets: addresses(contracts.targets, key), spenders: addresses(contracts.spenders, key) },
    ];
  });
  return new Map(entries);
}

function addresses(value: unknown, chain: string): Address[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every((a): a is string => typeof a === 'string' && isAddress(a, { strict: false }))
  )
    throw new AllowlistProblem(
      `chain ${chain}: targets and spenders must be arrays of 20-byte hex EVM addresses`,
    );
  return value as Address[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { type Address, type Hex, isAddress } from 'viem';
import { MalformedResponseError } from './malformed-response.error';

// Small guards for provider JSON. `path` names the field in error messages so a log line says what was wrong.

const BASE_UNITS = /^[0-9]+$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function record(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw new MalformedResponseError(`${path} is missing or not an object`);
  return value;
}

export function optionalRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

/** An absent array reads as empty; anything else that is not an array is malformed. */
export function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new MalformedResponseError(`${path} is not an array`);
  return value;
}

export function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw new MalformedResponseError(`${path} is missing`);
  return value;
}

export function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A raw token amount: a string of decimal digits, never a JSON number (which loses precision past 2^53). */
export function baseUnits(value: unknown, path: string): bigint {
  if (typeof value !== 'string' || !BASE_UNITS.test(value))
    throw new MalformedResponseError(`${path} is not a base-unit integer string`);
  return BigInt(value);
}

/** Base units when the value is a digit string, else null: for figures that are informational, not required. */
export function baseUnitsOrNull(value: unknown): bigint | null {
  return typeof value === 'string' && BASE_UNITS.test(value) ? BigInt(value) : null;
}

export function optionalBaseUnits(value: unknown, path: string): bigint | null {
  return value === undefined || value === null ? null : baseUnits(value, path);
}

/** Gas limits and chain ids: providers send either a JSON integer or a digit string. */
export function integer(value: unknown, path: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && BASE_UNITS.test(value)) return BigInt(value);
  throw new MalformedResponseError(`${path} is not a non-negative integer`);
}

export function optionalInteger(value: unknown, path: string): bigint | null {
  return value === undefined || value === null ? null : integer(value, path);
}

/**
 * A transaction's gas limit as a provider suggests it, or null for "let the wallet estimate": absent, and also 0 or
 * less (the Across toolkit treats zero gas as unset since 9c840105, "Zero-ish gas values are now treated as unset"),
 * because a zero limit handed to a wallet can only fail. Anything that is not an integer is still malformed.
 */
export function optionalGasLimit(value: unknown, path: string): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value <= 0) return null;
  if (typeof value === 'string' && /^-[0-9]+$/.test(value)) return null;
  const gas = optionalInteger(value, path);
  return gas === null || gas === 0n ? null : gas;
}

export function chainId(value: unknown, path: string): number {
  const id = integer(value, path);
  if (id > BigInt(Number.MAX_SAFE_INTEGER)) throw new MalformedResponseError(`${path} is out of range`);
  return Number(id);
}

/** A chain id when the value is a positive safe integer (JSON number or digit string), else null: informational. */
export function chainIdOrNull(value: unknown): number | null {
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && BASE_UNITS.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A small integer field (bps, auction mode) within [0, max]; absent reads as `fallback`. */
export function smallInt(value: unknown, path: string, max: number, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw new MalformedResponseError(`${path} is not an integer between 0 and ${max}`);
  return value;
}

export function address(value: unknown, path: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw new MalformedResponseError(`${path} is not an EVM address`);
  return value;
}

export function optionalAddress(value: unknown, path: string): Address | null {
  return value === undefined || value === null ? null : address(value, path);
}

export function hexData(value: unknown, path: string): Hex {
  if (typeof value !== 'string' || !HEX.test(value))
    throw new MalformedResponseError(`${path} is not hex data`);
  return value as Hex;
}

/** A transaction hash, or null when absent or not one: hashes are informational, never worth failing over. */
export function txHashOrNull(value: unknown): Hex | null {
  return typeof value === 'string' && TX_HASH.test(value) ? (value as Hex) : null;
}

/** A USD figure (display only): a decimal string or a number; anything unparseable reads as null. */
export function usd(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/.test(value.trim()))
    return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** Seconds, when the provider gives a non-negative number. */
export function seconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

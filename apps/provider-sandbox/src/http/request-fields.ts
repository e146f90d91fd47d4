import { getAddress, isAddress, type Address } from 'viem';
import { RequestFieldError } from './request-field-error';

/**
 * Readers for request fields from a JSON body or a query string. They throw RequestFieldError naming the
 * field, which each dialect turns into its own 400 body.
 */
export function readString(source: Record<string, unknown>, field: string): string {
  const value = source[field];
  if (value === undefined || value === null || value === '') {
    throw new RequestFieldError(field, 'missing', `${field} is required`);
  }
  if (typeof value !== 'string') throw new RequestFieldError(field, 'invalid', `${field} must be a string`);
  return value;
}

export function readAddress(source: Record<string, unknown>, field: string): Address {
  const value = readString(source, field);
  if (!isAddress(value, { strict: false })) {
    throw new RequestFieldError(field, 'invalid', `${field} must be an EVM address`);
  }
  return getAddress(value);
}

export function readOptionalAddress(source: Record<string, unknown>, field: string): Address | undefined {
  return isPresent(source[field]) ? readAddress(source, field) : undefined;
}

/** A base-unit amount: a decimal integer string (or a safe integer number, which some clients send). */
export function readUint(source: Record<string, unknown>, field: string): bigint {
  const value = source[field];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  const text = readString(source, field);
  if (!/^\d+$/.test(text))
    throw new RequestFieldError(field, 'invalid', `${field} must be an integer string`);
  return BigInt(text);
}

/** An integer sent as a JSON number or as a decimal string (query strings only carry strings). */
export function readInt(source: Record<string, unknown>, field: string): number {
  const value = source[field];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const text = readString(source, field);
  if (!/^-?\d+$/.test(text)) throw new RequestFieldError(field, 'invalid', `${field} must be an integer`);
  return Number(text);
}

export function readOptionalInt(source: Record<string, unknown>, field: string): number | undefined {
  return isPresent(source[field]) ? readInt(source, field) : undefined;
}

export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** The parsed JSON object body; anything else is a 400 in the caller's dialect. */
export function parseJsonObject(rawBody: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody || '{}');
  } catch {
    throw new RequestFieldError('body', 'invalid', 'body must be valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RequestFieldError('body', 'invalid', 'body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function queryObject(query: URLSearchParams): Record<string, unknown> {
  return Object.fromEntries(query.entries());
}

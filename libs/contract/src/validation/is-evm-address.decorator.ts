import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isAddress } from 'viem';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const EVM_ADDRESS_RULE =
  'must be an EVM address: 0x followed by 40 hex characters, mixed case only as a valid EIP-55 checksum';

/**
 * Single-case hex carries no checksum and is accepted as is; mixed case claims an EIP-55 checksum, and a
 * wrong one usually means a mistyped address, so it must verify.
 */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) return false;
  const hex = value.slice(2);
  return hex === hex.toLowerCase() || hex === hex.toUpperCase() || isAddress(value, { strict: true });
}

export function IsEvmAddress(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isEvmAddress', validator: { validate: (value: unknown) => isEvmAddress(value) } },
    options,
  );
}

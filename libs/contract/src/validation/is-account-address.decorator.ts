import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isEvmAddress } from './is-evm-address.decorator';

const ZERO_ADDRESS = /^0x0{40}$/;

export const ACCOUNT_ADDRESS_RULE =
  'must be an EVM address other than the zero address: 0x followed by 40 hex characters, mixed case only as a valid EIP-55 checksum';

/**
 * An address that holds or receives funds (a wallet, a recipient). Nobody holds the zero address's key: tokens sent
 * there are burnt, and a native no-op "delivered" there is lost, so it is refused where token addresses allow it.
 */
export function isAccountAddress(value: unknown): value is string {
  return isEvmAddress(value) && !ZERO_ADDRESS.test(value);
}

export function IsAccountAddress(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isAccountAddress', validator: { validate: (value: unknown) => isAccountAddress(value) } },
    options,
  );
}

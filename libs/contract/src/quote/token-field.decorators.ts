import { IsInt, Max, Min } from 'class-validator';
import { coded } from '../validation/coded';
import { IsDecimalString, DECIMAL_STRING_RULE } from '../validation/is-decimal-string.decorator';
import { EVM_ADDRESS_RULE, IsEvmAddress } from '../validation/is-evm-address.decorator';
import { IsStringOfLength } from '../validation/is-string-of-length.decorator';
import { QUOTE_LIMITS } from './quote-limits';

/** Token fields that sources and target tokens share, so both report the same codes and messages. */

export function IsTokenAddress(): PropertyDecorator {
  return IsEvmAddress(
    coded('invalid_token_address', `${EVM_ADDRESS_RULE} (the zero address denotes the native asset)`),
  );
}

export function IsTokenDecimals(): PropertyDecorator {
  const options = coded('invalid_decimals', `must be an integer from 0 to ${QUOTE_LIMITS.maxDecimals}`);
  return (target, key) => {
    IsInt(options)(target, key);
    Min(0, options)(target, key);
    Max(QUOTE_LIMITS.maxDecimals, options)(target, key);
  };
}

export function IsTokenSymbol(): PropertyDecorator {
  const { maxSymbolLength } = QUOTE_LIMITS;
  return IsStringOfLength(
    1,
    maxSymbolLength,
    coded('invalid_symbol', `must be a string of 1 to ${maxSymbolLength} characters`),
  );
}

export function IsUsdValue(): PropertyDecorator {
  return IsDecimalString(coded('invalid_usd_value', DECIMAL_STRING_RULE));
}

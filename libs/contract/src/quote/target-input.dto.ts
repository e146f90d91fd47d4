import { IsNumber, IsObject, ValidateNested } from 'class-validator';
import { coded } from '../validation/coded';
import { IsChainId } from '../validation/is-chain-id.decorator';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { IsStringOfLength } from '../validation/is-string-of-length.decorator';
import { QUOTE_LIMITS } from './quote-limits';
import { type TargetTokenInputDto } from './target-token-input.dto';
import { IsTokenAddress } from './token-field.decorators';

const TARGET_TOKEN = coded('invalid_target', 'must be an object {address, symbol?, decimals, priceUSD?}');

/** spec: TargetInput, shared by `target` and `targets[]`; the form-specific rules are cross-field rules. */
export class TargetInputDto {
  @IsOptionalField()
  @IsStringOfLength(
    1,
    QUOTE_LIMITS.maxTargetIdLength,
    coded('invalid_target', `must be a string of 1 to ${QUOTE_LIMITS.maxTargetIdLength} characters`),
  )
  id?: string;

  @IsChainId()
  chainId!: number;

  @IsTokenAddress()
  address!: string;

  @IsOptionalField()
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    coded('invalid_allocation_percent', 'must be a finite number'),
  )
  allocationPercent?: number;

  @IsObject(TARGET_TOKEN)
  @ValidateNested(TARGET_TOKEN)
  targetToken!: TargetTokenInputDto;
}

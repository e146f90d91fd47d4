import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { IsTokenAddress, IsTokenDecimals, IsTokenSymbol, IsUsdValue } from './token-field.decorators';

/** spec: TargetInput.targetToken. */
export class TargetTokenInputDto {
  @IsTokenAddress()
  address!: string;

  @IsOptionalField()
  @IsTokenSymbol()
  symbol?: string;

  @IsTokenDecimals()
  decimals!: number;

  @IsOptionalField()
  @IsUsdValue()
  priceUSD?: string;
}

import { coded } from '../validation/coded';
import { IsChainId } from '../validation/is-chain-id.decorator';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { IsRawAmount, RAW_AMOUNT_RULE } from '../validation/is-raw-amount.decorator';
import { IsTokenAddress, IsTokenDecimals, IsTokenSymbol, IsUsdValue } from './token-field.decorators';

/** spec: SourceInput. Token identity is (chainId, address); duplicates are checked across the array. */
export class SourceInputDto {
  @IsChainId()
  chainId!: number;

  @IsTokenAddress()
  address!: string;

  @IsRawAmount(coded('invalid_amount', RAW_AMOUNT_RULE))
  amount!: string;

  @IsOptionalField()
  @IsTokenSymbol()
  symbol?: string;

  @IsTokenDecimals()
  decimals!: number;

  /** Optional here; the multi-target form requires it (a cross-field rule). */
  @IsOptionalField()
  @IsUsdValue()
  usdValue?: string;
}

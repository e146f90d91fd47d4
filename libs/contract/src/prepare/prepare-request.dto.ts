import { IsObject, ValidateNested } from 'class-validator';
import { type NestedDtoTypes } from '../validation/to-dto-instance';
import { coded } from '../validation/coded';
import { IsHttpUrl } from '../validation/is-http-url.decorator';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { WalletContextDto } from './wallet-context.dto';

const WALLET_CONTEXT = coded(
  'invalid_wallet_context',
  'must be an object {connectorName?, connectorId?, walletCapabilities?}',
);

/** spec: PrepareRequest. */
export class PrepareRequestDto {
  @IsOptionalField()
  @IsHttpUrl(coded('invalid_callback_url', 'must be an absolute http or https URL'))
  callbackUrl?: string;

  @IsOptionalField()
  @IsObject(WALLET_CONTEXT)
  @ValidateNested(WALLET_CONTEXT)
  walletContext?: WalletContextDto;
}

/** The nested DTOs of this request, for toDtoInstance. */
export const PREPARE_REQUEST_NESTED_TYPES: NestedDtoTypes[] = [
  { target: PrepareRequestDto, properties: { walletContext: WalletContextDto } },
];

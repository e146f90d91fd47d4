import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNumber,
  IsObject,
  IsOptional,
  Min,
  ValidateNested,
} from 'class-validator';
import { type NestedDtoTypes } from '../validation/to-dto-instance';
import { coded } from '../validation/coded';
import { ChainResultDto } from './chain-result.dto';
import { SUBMITTED_LIMITS } from './submitted-limits';
import { WalletAuthorizationInputDto } from './wallet-authorization-input.dto';

const L = SUBMITTED_LIMITS;
const SUBMITTED_AT = coded(
  'invalid_submitted_at',
  'must be null or a number of at least 0 (epoch milliseconds)',
);
const WALLET_AUTHORIZATION = coded('invalid_wallet_authorization', 'must be null or an object {signature}');
const CHAIN_RESULTS = coded(
  'invalid_chain_results',
  `must be an array of ${L.minChainResults} to ${L.maxChainResults} chain result objects`,
);

/** spec: SubmittedRequest. The nullable fields use IsOptional, which also skips null. */
export class SubmittedRequestDto {
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, SUBMITTED_AT)
  @Min(0, SUBMITTED_AT)
  submittedAt?: number | null;

  @IsOptional()
  @IsObject(WALLET_AUTHORIZATION)
  @ValidateNested(WALLET_AUTHORIZATION)
  walletAuthorization?: WalletAuthorizationInputDto | null;

  @IsArray(CHAIN_RESULTS)
  @ArrayMinSize(L.minChainResults, CHAIN_RESULTS)
  @ArrayMaxSize(L.maxChainResults, CHAIN_RESULTS)
  @IsObject({ ...CHAIN_RESULTS, each: true })
  @ValidateNested({ ...CHAIN_RESULTS, each: true })
  chainResults!: ChainResultDto[];
}

/** The nested DTOs of this request, for toDtoInstance. */
export const SUBMITTED_REQUEST_NESTED_TYPES: NestedDtoTypes[] = [
  {
    target: SubmittedRequestDto,
    properties: { walletAuthorization: WalletAuthorizationInputDto, chainResults: ChainResultDto },
  },
];

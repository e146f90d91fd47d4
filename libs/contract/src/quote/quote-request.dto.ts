import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_NAMES, type ProviderName } from '../enums/provider-name';
import { type NestedDtoTypes } from '../validation/to-dto-instance';
import { coded } from '../validation/coded';
import { ACCOUNT_ADDRESS_RULE, IsAccountAddress } from '../validation/is-account-address.decorator';
import { IsHttpUrl } from '../validation/is-http-url.decorator';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { QUOTE_LIMITS } from './quote-limits';
import { SourceInputDto } from './source-input.dto';
import { TargetInputDto } from './target-input.dto';
import { TargetTokenInputDto } from './target-token-input.dto';

const L = QUOTE_LIMITS;
const SOURCES = coded(
  'invalid_sources',
  `must be an array of ${L.minSources} to ${L.maxSources} source objects`,
);
const SOURCE_ITEMS = { ...SOURCES, each: true };
const TARGET = coded(
  'invalid_target',
  'must be an object {id?, chainId, address, allocationPercent?, targetToken}',
);
const TARGETS = coded('invalid_target', `must be an array of 1 to ${L.maxTargets} target objects`);
const TARGET_ITEMS = { ...TARGETS, each: true };
const SLIPPAGE = coded(
  'invalid_slippage_bps',
  `must be an integer from ${L.minSlippageBps} to ${L.maxSlippageBps}`,
);
const MAX_WAIT = coded(
  'invalid_max_wait_ms',
  `must be an integer from ${L.minMaxWaitMs} to ${L.maxMaxWaitMs}`,
);
const FEE = coded('invalid_fee_bps', 'must be a JSON integer of at least 0');
const EXCLUDE_UNECONOMIC = coded('invalid_exclude_uneconomic_sources', 'must be a boolean');
const UNECONOMIC_THRESHOLD = coded(
  'invalid_uneconomic_threshold_bps',
  `must be an integer from ${L.minUneconomicThresholdBps} to ${L.maxUneconomicThresholdBps}`,
);
const PROVIDERS_RULE = `must be an array of provider names (${PROVIDER_NAMES.join(', ')})`;
const PROVIDERS = coded('invalid_allowed_providers', PROVIDERS_RULE);

/** spec: QuoteRequest. Field order here is the order errors are reported in. */
export class QuoteRequestDto {
  @IsAccountAddress(coded('invalid_wallet_address', ACCOUNT_ADDRESS_RULE))
  walletAddress!: string;

  @IsOptionalField()
  @IsAccountAddress(coded('invalid_recipient', ACCOUNT_ADDRESS_RULE))
  recipient?: string;

  @IsArray(SOURCES)
  @ArrayMinSize(L.minSources, SOURCES)
  @ArrayMaxSize(L.maxSources, SOURCES)
  @IsObject(SOURCE_ITEMS)
  @ValidateNested(SOURCE_ITEMS)
  sources!: SourceInputDto[];

  @IsOptionalField()
  @IsObject(TARGET)
  @ValidateNested(TARGET)
  target?: TargetInputDto;

  @IsOptionalField()
  @IsArray(TARGETS)
  @ArrayMinSize(1, TARGETS)
  @ArrayMaxSize(L.maxTargets, TARGETS)
  @IsObject(TARGET_ITEMS)
  @ValidateNested(TARGET_ITEMS)
  targets?: TargetInputDto[];

  @IsOptionalField()
  @IsInt(SLIPPAGE)
  @Min(L.minSlippageBps, SLIPPAGE)
  @Max(L.maxSlippageBps, SLIPPAGE)
  slippageBps?: number;

  @IsOptionalField()
  @IsBoolean(coded('invalid_allow_partial', 'must be a boolean'))
  allowPartial?: boolean;

  @IsOptionalField()
  @IsInt(MAX_WAIT)
  @Min(L.minMaxWaitMs, MAX_WAIT)
  @Max(L.maxMaxWaitMs, MAX_WAIT)
  maxWaitMs?: number;

  /** The upper bound is the partner's own maximum, checked against the policy after this DTO. */
  @IsOptionalField()
  @IsInt(FEE)
  @Min(0, FEE)
  feeBps?: number;

  @IsOptionalField()
  @IsArray(PROVIDERS)
  @IsIn(PROVIDER_NAMES, { ...PROVIDERS, each: true })
  allowedProviders?: ProviderName[];

  @IsOptionalField()
  @IsHttpUrl(coded('invalid_callback_url', 'must be an absolute http or https URL'))
  callbackUrl?: string;

  /** Leave out the sources flagged uneconomic (docs/source-economics.md); default false: flagged only. */
  @IsOptionalField()
  @IsBoolean(EXCLUDE_UNECONOMIC)
  excludeUneconomicSources?: boolean;

  @IsOptionalField()
  @IsInt(UNECONOMIC_THRESHOLD)
  @Min(L.minUneconomicThresholdBps, UNECONOMIC_THRESHOLD)
  @Max(L.maxUneconomicThresholdBps, UNECONOMIC_THRESHOLD)
  uneconomicThresholdBps?: number;
}

/** The nested DTOs of this request, for toDtoInstance. */
export const QUOTE_REQUEST_NESTED_TYPES: NestedDtoTypes[] = [
  {
    target: QuoteRequestDto,
    properties: { sources: SourceInputDto, target: TargetInputDto, targets: TargetInputDto },
  },
  { target: TargetInputDto, properties: { targetToken: TargetTokenInputDto } },
];

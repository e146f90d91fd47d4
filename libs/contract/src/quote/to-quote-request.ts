import { type ProviderName } from '../enums/provider-name';
import { optionalEntry } from '../validation/optional-entry';
import { effectiveTargetId } from './multi-target.rules';
import { QUOTE_LIMITS } from './quote-limits';
import { type QuoteRequestDto } from './quote-request.dto';
import { type QuoteRequest, type SourceInput, type TargetInput } from './quote-request.types';
import { type SourceInputDto } from './source-input.dto';
import { type TargetInputDto } from './target-input.dto';

/** Builds the plain, typed request from a DTO that passed every rule, applying the documented defaults. */
export function toQuoteRequest(dto: QuoteRequestDto): QuoteRequest {
  const fields = {
    walletAddress: dto.walletAddress,
    recipient: dto.recipient ?? dto.walletAddress,
    sources: dto.sources.map(toSourceInput),
    slippageBps: dto.slippageBps ?? QUOTE_LIMITS.defaultSlippageBps,
    allowPartial: dto.allowPartial ?? false,
    ...optionalEntry('maxWaitMs', dto.maxWaitMs),
    ...optionalEntry('feeBps', dto.feeBps),
    ...optionalEntry('allowedProviders', dto.allowedProviders && uniqueProviders(dto.allowedProviders)),
    ...optionalEntry('callbackUrl', dto.callbackUrl),
    ...optionalEntry('excludeUneconomicSources', dto.excludeUneconomicSources),
    ...optionalEntry('uneconomicThresholdBps', dto.uneconomicThresholdBps),
  };
  if (dto.target !== undefined) return { ...fields, target: toTargetInput(dto.target, 0) };
  return { ...fields, targets: (dto.targets ?? []).map(toTargetInput) };
}

function toSourceInput(source: SourceInputDto): SourceInput {
  return {
    chainId: source.chainId,
    address: source.address,
    amount: source.amount,
    decimals: source.decimals,
    ...optionalEntry('symbol', source.symbol),
    ...optionalEntry('usdValue', source.usdValue),
  };
}

function toTargetInput(target: TargetInputDto, index: number): TargetInput {
  const token = target.targetToken;
  return {
    id: effectiveTargetId(target, index),
    chainId: target.chainId,
    address: target.address,
    // Absent only in the single-target form (the multi-target rules require it): the one target gets all.
    allocationPercent: target.allocationPercent ?? 100,
    targetToken: {
      address: token.address,
      decimals: token.decimals,
      ...optionalEntry('symbol', token.symbol),
      ...optionalEntry('priceUSD', token.priceUSD),
    },
  };
}

function uniqueProviders(providers: readonly ProviderName[]): ProviderName[] {
  return [...new Set(providers)];
}

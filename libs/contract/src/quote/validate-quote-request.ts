import { checkCallbackUrl, checkFeeBps } from '../validation/partner-policy.rules';
import { bodyObject } from '../validation/invalid-request-body';
import { sortFieldErrors } from '../validation/sort-field-errors';
import { validateDto } from '../validation/validate-dto';
import { type PartnerRequestPolicy, type ValidationResult } from '../validation/validation-result';
import { QUOTE_REQUEST_NESTED_TYPES, QuoteRequestDto } from './quote-request.dto';
import { type QuoteRequest } from './quote-request.types';
import { checkDuplicateSources } from './sources.rules';
import { checkTargetForm } from './target-form.rules';
import { toQuoteRequest } from './to-quote-request';

/** Errors are reported in this order of fields (after unknown fields). */
const FIELD_ORDER = [
  'walletAddress',
  'recipient',
  'sources',
  'target',
  'targets',
  'slippageBps',
  'allowPartial',
  'maxWaitMs',
  'feeBps',
  'allowedProviders',
  'callbackUrl',
] as const satisfies readonly (keyof QuoteRequestDto)[];

/** Validates a parsed POST /intents/quote body against the contract and the partner's policy. */
export function validateQuoteRequest(
  body: unknown,
  policy: PartnerRequestPolicy,
): ValidationResult<QuoteRequest> {
  const checked = bodyObject(body);
  if ('refused' in checked) return checked.refused;
  const { dto, errors: fieldErrors } = validateDto(QuoteRequestDto, checked.json, QUOTE_REQUEST_NESTED_TYPES);
  const errors = [
    ...fieldErrors,
    ...checkDuplicateSources(dto.sources, fieldErrors),
    ...checkTargetForm(dto, fieldErrors),
    ...checkFeeBps(dto.feeBps, policy, fieldErrors),
    ...checkCallbackUrl(dto.callbackUrl, policy, fieldErrors),
  ];
  if (errors.length > 0) return { ok: false, errors: sortFieldErrors(errors, FIELD_ORDER) };
  return { ok: true, value: toQuoteRequest(dto) };
}

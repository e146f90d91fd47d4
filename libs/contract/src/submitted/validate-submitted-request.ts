import { bodyObject } from '../validation/invalid-request-body';
import { sortFieldErrors } from '../validation/sort-field-errors';
import { validateDto } from '../validation/validate-dto';
import { type ValidationResult } from '../validation/validation-result';
import { type ChainResultDto } from './chain-result.dto';
import { checkChainResults } from './chain-results.rules';
import { SUBMITTED_REQUEST_NESTED_TYPES, SubmittedRequestDto } from './submitted-request.dto';
import { type ChainResult, type SubmittedRequest } from './submitted-request.types';

const FIELD_ORDER = [
  'submittedAt',
  'walletAuthorization',
  'chainResults',
] as const satisfies readonly (keyof SubmittedRequestDto)[];

/** Validates a parsed POST /attempts/{id}/submitted body. */
export function validateSubmittedRequest(body: unknown): ValidationResult<SubmittedRequest> {
  const checked = bodyObject(body);
  if ('refused' in checked) return checked.refused;
  const { dto, errors: fieldErrors } = validateDto(
    SubmittedRequestDto,
    checked.json,
    SUBMITTED_REQUEST_NESTED_TYPES,
  );
  const errors = [...fieldErrors, ...checkChainResults(dto.chainResults, fieldErrors)];
  if (errors.length > 0) return { ok: false, errors: sortFieldErrors(errors, FIELD_ORDER) };
  return {
    ok: true,
    value: {
      submittedAt: dto.submittedAt ?? null,
      walletAuthorization: dto.walletAuthorization ? { signature: dto.walletAuthorization.signature } : null,
      chainResults: dto.chainResults.map(toChainResult),
    },
  };
}

/** Hashes are case-insensitive hex: lower-casing makes the de-duplication and later lookups exact. */
function toChainResult(dto: ChainResultDto): ChainResult {
  return {
    chainId: dto.chainId,
    bundleId: dto.bundleId ?? null,
    txHashes: [...new Set((dto.txHashes ?? []).map((hash) => hash.toLowerCase()))],
    quoteResults: dto.quoteResults ?? [],
  };
}

import { bodyObject } from '../validation/invalid-request-body';
import { optionalEntry } from '../validation/optional-entry';
import { checkCallbackUrl } from '../validation/partner-policy.rules';
import { sortFieldErrors } from '../validation/sort-field-errors';
import { validateDto } from '../validation/validate-dto';
import { type PartnerRequestPolicy, type ValidationResult } from '../validation/validation-result';
import { PREPARE_REQUEST_NESTED_TYPES, PrepareRequestDto } from './prepare-request.dto';
import { type PrepareRequest, type WalletContext } from './prepare-request.types';
import { type WalletContextDto } from './wallet-context.dto';

const FIELD_ORDER = ['callbackUrl', 'walletContext'] as const satisfies readonly (keyof PrepareRequestDto)[];

/**
 * Validates a parsed POST /intents/{id}/prepare body. The body is optional (spec), so an absent or null
 * body means `{}`.
 */
export function validatePrepareRequest(
  body: unknown,
  policy: PartnerRequestPolicy,
): ValidationResult<PrepareRequest> {
  const checked = bodyObject(body ?? {});
  if ('refused' in checked) return checked.refused;
  const { dto, errors: fieldErrors } = validateDto(
    PrepareRequestDto,
    checked.json,
    PREPARE_REQUEST_NESTED_TYPES,
  );
  const errors = [...fieldErrors, ...checkCallbackUrl(dto.callbackUrl, policy, fieldErrors)];
  if (errors.length > 0) return { ok: false, errors: sortFieldErrors(errors, FIELD_ORDER) };
  return {
    ok: true,
    value: {
      ...optionalEntry('callbackUrl', dto.callbackUrl),
      ...optionalEntry('walletContext', dto.walletContext && toWalletContext(dto.walletContext)),
    },
  };
}

function toWalletContext(dto: WalletContextDto): WalletContext {
  return {
    ...optionalEntry('connectorName', dto.connectorName),
    ...optionalEntry('connectorId', dto.connectorId),
    ...optionalEntry('walletCapabilities', dto.walletCapabilities),
  };
}

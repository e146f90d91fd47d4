import { type FieldError } from '../errors/error-response';
import { fieldError, isRejected } from './field-error';
import { type PartnerRequestPolicy } from './validation-result';

/** The DTO has already checked that feeBps is a JSON integer >= 0; the bound is per partner. */
export function checkFeeBps(
  feeBps: number | undefined,
  policy: PartnerRequestPolicy,
  errors: readonly FieldError[],
): FieldError[] {
  if (feeBps === undefined || isRejected(errors, 'feeBps') || feeBps <= policy.maxFeeBps) return [];
  return [
    fieldError('invalid_fee_bps', 'feeBps', `must not exceed the partner's maximum of ${policy.maxFeeBps}`),
  ];
}

/**
 * Webhooks go only to the URL configured for the partner; a request may repeat it but never redirect
 * delivery elsewhere. The DTO has already checked that it is an absolute http(s) URL.
 */
export function checkCallbackUrl(
  callbackUrl: string | undefined,
  policy: PartnerRequestPolicy,
  errors: readonly FieldError[],
): FieldError[] {
  if (callbackUrl === undefined || isRejected(errors, 'callbackUrl') || callbackUrl === policy.callbackUrl)
    return [];
  const rule =
    policy.callbackUrl === null
      ? 'cannot be set: no callback URL is configured for this partner'
      : 'must exactly equal the callback URL configured for this partner';
  return [fieldError('invalid_callback_url', 'callbackUrl', rule)];
}

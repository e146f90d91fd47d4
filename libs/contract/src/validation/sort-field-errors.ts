import { type FieldError } from '../errors/error-response';
import { topLevelField } from './field-path';

/**
 * Most important first, because the gateway reports `errors[0].code`: unknown fields lead (a typo such as
 * `slipageBps` usually explains the errors that follow it), then errors in the request's documented field
 * order. The sort is stable, so within one field the validator's own order is kept.
 */
export function sortFieldErrors(errors: readonly FieldError[], fieldOrder: readonly string[]): FieldError[] {
  const rank = (error: FieldError): number => {
    if (error.code === 'unknown_field') return -1;
    const index = fieldOrder.indexOf(topLevelField(error.field));
    return index === -1 ? fieldOrder.length : index;
  };
  return [...errors].sort((a, b) => rank(a) - rank(b));
}

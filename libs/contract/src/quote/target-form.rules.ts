import { type FieldError } from '../errors/error-response';
import { fieldError } from '../validation/field-error';
import { checkMultiTarget } from './multi-target.rules';
import { type QuoteRequestDto } from './quote-request.dto';
import { checkSingleTarget } from './target.rules';

/** spec: exactly one of `target` (single-output form) and `targets` (multi-output form). */
export function checkTargetForm(dto: QuoteRequestDto, errors: readonly FieldError[]): FieldError[] {
  const { target, targets } = dto;
  if (target === undefined && targets === undefined) {
    return [fieldError('target_required', 'target', 'or targets is required')];
  }
  if (target !== undefined && targets !== undefined) {
    return [
      fieldError('target_conflict', 'targets', 'cannot be combined with target: send exactly one of them'),
    ];
  }
  if (target !== undefined) return checkSingleTarget(target, errors);
  return checkMultiTarget(targets ?? [], dto.sources, errors);
}

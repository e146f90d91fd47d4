import { type FieldError } from '../errors/error-response';
import { fieldError, isRejected } from '../validation/field-error';
import { type TargetInputDto } from './target-input.dto';

/** spec: target.address and target.targetToken.address must match (case-insensitively). */
export function checkTargetTokenMatches(
  target: TargetInputDto,
  at: string,
  errors: readonly FieldError[],
): FieldError[] {
  if (isRejected(errors, `${at}.address`) || isRejected(errors, `${at}.targetToken.address`)) return [];
  if (target.address.toLowerCase() === target.targetToken.address.toLowerCase()) return [];
  return [fieldError('target_token_mismatch', `${at}.targetToken.address`, `must equal ${at}.address`)];
}

/** The single-target form delivers everything to one target, so a stated share can only be 100. */
export function checkSingleTarget(target: TargetInputDto, errors: readonly FieldError[]): FieldError[] {
  if (isRejected(errors, 'target')) return [];
  const mismatch = checkTargetTokenMatches(target, 'target', errors);
  const percent = target.allocationPercent;
  if (percent === undefined || percent === 100 || isRejected(errors, 'target.allocationPercent'))
    return mismatch;
  return [
    ...mismatch,
    fieldError(
      'invalid_allocation_percent',
      'target.allocationPercent',
      'must be 100 (or omitted) in the single-target form',
    ),
  ];
}

import { type FieldError } from '../errors/error-response';
import { fieldError, isRejected } from '../validation/field-error';
import { indexPath } from '../validation/field-path';
import { isPositiveDecimalString } from '../validation/is-decimal-string.decorator';
import { QUOTE_LIMITS } from './quote-limits';
import { type SourceInputDto } from './source-input.dto';
import { type TargetInputDto } from './target-input.dto';
import { checkTargetTokenMatches } from './target.rules';

/** The id a target gets in the validated request and in every `outputTargetId` of the response. */
export function effectiveTargetId(target: Pick<TargetInputDto, 'id'>, index: number): string {
  return target.id ?? `t${index}`;
}

/**
 * spec: the multi-output form splits the portfolio's USD value by allocationPercent, so every target needs a
 * share, the shares must total 100, and every source needs a positive USD value.
 */
export function checkMultiTarget(
  targets: readonly TargetInputDto[],
  sources: readonly SourceInputDto[],
  errors: readonly FieldError[],
): FieldError[] {
  const targetErrors = isRejected(errors, 'targets') ? [] : checkTargets(targets, errors);
  const sourceErrors = isRejected(errors, 'sources') ? [] : checkSourceUsdValues(sources, errors);
  return [...targetErrors, ...sourceErrors];
}

function checkTargets(targets: readonly TargetInputDto[], errors: readonly FieldError[]): FieldError[] {
  const found: FieldError[] = [];
  let allPercentsValid = true;
  let sum = 0;
  targets.forEach((target, index) => {
    const at = indexPath('targets', index);
    found.push(...checkTargetTokenMatches(target, at, errors));
    const percent = target.allocationPercent;
    if (isRejected(errors, `${at}.allocationPercent`)) {
      allPercentsValid = false;
    } else if (percent === undefined || percent <= 0 || percent > 100) {
      allPercentsValid = false;
      const rule =
        percent === undefined
          ? 'is required in the multi-target form'
          : 'must be greater than 0 and at most 100';
      found.push(fieldError('invalid_allocation_percent', `${at}.allocationPercent`, rule));
    } else {
      sum += percent;
    }
  });
  if (allPercentsValid && Math.abs(sum - 100) > QUOTE_LIMITS.allocationSumTolerance) {
    found.push(
      fieldError(
        'invalid_allocation_percent',
        'targets',
        `allocationPercent values must sum to 100, not ${sum}`,
      ),
    );
  }
  return [...found, ...checkTargetIds(targets, errors)];
}

/** Default ids (`t<index>`) take part, so an explicit `t1` on another target collides with the default. */
function checkTargetIds(targets: readonly TargetInputDto[], errors: readonly FieldError[]): FieldError[] {
  const seen = new Map<string, number>();
  const found: FieldError[] = [];
  targets.forEach((target, index) => {
    const at = `${indexPath('targets', index)}.id`;
    if (isRejected(errors, at)) return;
    const id = effectiveTargetId(target, index);
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else
      found.push(
        fieldError(
          'invalid_target',
          at,
          `repeats the id "${id}" of targets[${first}] (targets without an id get t<index>)`,
        ),
      );
  });
  return found;
}

function checkSourceUsdValues(
  sources: readonly SourceInputDto[],
  errors: readonly FieldError[],
): FieldError[] {
  return sources.flatMap((source, index) => {
    const at = `${indexPath('sources', index)}.usdValue`;
    if (isRejected(errors, at)) return [];
    if (source.usdValue === undefined) {
      return [fieldError('usd_value_required', at, 'is required on every source in the multi-target form')];
    }
    if (!isPositiveDecimalString(source.usdValue)) {
      return [fieldError('invalid_usd_value', at, 'must be positive in the multi-target form')];
    }
    return [];
  });
}

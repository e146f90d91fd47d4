import { type FieldError } from '../errors/error-response';
import { fieldError, isRejected } from '../validation/field-error';
import { indexPath } from '../validation/field-path';
import { type SourceInputDto } from './source-input.dto';

/** Token identity is (chainId, address), addresses compared case-insensitively; the later entry is blamed. */
export function checkDuplicateSources(
  sources: readonly SourceInputDto[],
  errors: readonly FieldError[],
): FieldError[] {
  if (isRejected(errors, 'sources')) return [];
  const seen = new Map<string, number>();
  const duplicates: FieldError[] = [];
  sources.forEach((source, index) => {
    const at = indexPath('sources', index);
    if (isRejected(errors, `${at}.chainId`) || isRejected(errors, `${at}.address`)) return;
    const key = `${source.chainId}:${source.address.toLowerCase()}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else duplicates.push(fieldError('duplicate_source', at, `names the same token as sources[${first}]`));
  });
  return duplicates;
}

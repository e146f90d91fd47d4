import { type FieldError } from '../errors/error-response';
import { fieldError, isRejected } from '../validation/field-error';
import { indexPath } from '../validation/field-path';
import { type ChainResultDto } from './chain-result.dto';

/**
 * spec: one chain result per source chain, and each carries a bundle id, transaction hashes or both.
 * A duplicate chainId is blamed on the later entry.
 */
export function checkChainResults(
  results: readonly ChainResultDto[],
  errors: readonly FieldError[],
): FieldError[] {
  if (isRejected(errors, 'chainResults')) return [];
  const seen = new Map<number, number>();
  return results.flatMap((result, index) => {
    const at = indexPath('chainResults', index);
    const found: FieldError[] = [];
    if (!isRejected(errors, `${at}.chainId`)) {
      const first = seen.get(result.chainId);
      if (first === undefined) seen.set(result.chainId, index);
      else
        found.push(
          fieldError(
            'invalid_chain_results',
            at,
            `repeats chainId ${result.chainId} of chainResults[${first}]`,
          ),
        );
    }
    const evidenceValid = !isRejected(errors, `${at}.bundleId`) && !isRejected(errors, `${at}.txHashes`);
    const hasEvidence = (result.bundleId ?? null) !== null || (result.txHashes ?? []).length > 0;
    if (evidenceValid && !hasEvidence) {
      found.push(fieldError('invalid_chain_results', at, 'must carry a bundleId or at least one tx hash'));
    }
    return found;
  });
}

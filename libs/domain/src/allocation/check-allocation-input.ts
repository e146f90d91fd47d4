import { AllocationInputError } from './allocation-input.error';
import { type AllocationInput } from './allocation.types';
import { isDecimal } from './parse-decimal';

/**
 * The preconditions allocate() relies on; request validation already guarantees them, this only makes a broken
 * caller fail loudly instead of producing a plan with zero or duplicate slices.
 */
export function checkAllocationInput({ sources, targets }: AllocationInput): void {
  if (targets.length === 0) fail('at least one target is required');
  if (new Set(targets.map((t) => t.id)).size !== targets.length) fail('target ids must be unique');
  if (new Set(sources.map((s) => s.index)).size !== sources.length) fail('source indexes must be unique');
  for (const source of sources) {
    const at = `source ${source.index}`;
    if (source.amount <= 0n) fail(`${at}: amount must be positive`);
    if (!Number.isSafeInteger(source.decimals) || source.decimals < 0) fail(`${at}: bad decimals`);
    if (source.usdValue !== null && !isDecimal(source.usdValue)) fail(`${at}: usdValue is not a decimal`);
    if (targets.length > 1 && !/[1-9]/.test(source.usdValue ?? '')) {
      fail(`${at}: a positive usdValue is required with more than one target`);
    }
  }
}

function fail(detail: string): never {
  throw new AllocationInputError(detail);
}

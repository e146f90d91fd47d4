import { ValidateBy } from 'class-validator';
import { coded } from './coded';

export function isChainId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** Shared by sources, targets and chain results, so one code and message everywhere. */
export function IsChainId(): PropertyDecorator {
  return ValidateBy(
    { name: 'isChainId', validator: { validate: (value: unknown) => isChainId(value) } },
    coded('invalid_chain_id', 'must be a positive integer'),
  );
}

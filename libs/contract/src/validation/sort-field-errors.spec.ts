import { type ErrorCode } from '../errors/error-codes';
import { type FieldError } from '../errors/error-response';
import { sortFieldErrors } from './sort-field-errors';

const error = (code: ErrorCode, field: string): FieldError => ({ code, field, message: '' });

describe('sortFieldErrors', () => {
  it('puts unknown fields first, then follows the field order, keeping the order within a field', () => {
    const errors = [
      error('invalid_fee_bps', 'feeBps'),
      error('duplicate_source', 'sources[3]'),
      error('unknown_field', 'sources[0].x'),
      error('invalid_amount', 'sources[0].amount'),
      error('invalid_wallet_address', 'walletAddress'),
      error('unknown_field', 'extra'),
    ];
    expect(sortFieldErrors(errors, ['walletAddress', 'sources', 'feeBps']).map((e) => e.field)).toEqual([
      'sources[0].x',
      'extra',
      'walletAddress',
      'sources[3]',
      'sources[0].amount',
      'feeBps',
    ]);
  });
});

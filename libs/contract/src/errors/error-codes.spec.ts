import { ERROR_CODES, httpStatusOf, isErrorCode } from './error-codes';

describe('error code registry', () => {
  it('maps every code to a 4xx or 5xx status', () => {
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      expect([code, spec.status >= 400 && spec.status < 600]).toEqual([code, true]);
    }
  });
  it('recognises registered codes only', () => {
    expect(isErrorCode('invalid_fee_bps')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(httpStatusOf('idempotency_key_reused')).toBe(422);
  });
});

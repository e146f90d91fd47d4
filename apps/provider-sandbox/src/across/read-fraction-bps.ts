import { parseUnits } from 'viem';
import { RequestFieldError } from '../http/request-field-error';

/**
 * Across sends slippage and app fee as decimal fractions ("0.005" = 0.5%); the engine wants integer bps.
 * Parsed as text, never through a float.
 */
export function readFractionBps(value: string, field: string, max: number): number {
  if (!/^\d+(\.\d+)?$/.test(value))
    throw new RequestFieldError(field, 'invalid', `${field} must be a decimal fraction`);
  const bps = Number(parseUnits(value, 4));
  if (bps > max) throw new RequestFieldError(field, 'invalid', `${field} must be at most ${max / 10_000}`);
  return bps;
}

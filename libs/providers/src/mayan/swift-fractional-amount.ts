import { parseUnits } from 'viem';
import { MalformedResponseError } from '../response/malformed-response.error';

/** Swift carries amounts with at most 8 decimals (swap-sdk src/utils.ts `getNormalizeFactor` for EVM chains). */
export const SWIFT_MAX_DECIMALS = 8;

/** Past this, `toFixed` writes exponent notation, which the SDK's pattern would misread. */
const TO_FIXED_LIMIT = 1e21;

/** The SDK's pattern for each cut (0…8 decimals), compiled once rather than on every amount. */
const FIXED_PATTERNS = Array.from(
  { length: SWIFT_MAX_DECIMALS + 1 },
  (_, cut) => new RegExp(`^\\d+(?:\\.\\d{0,${cut}})?`),
);

/**
 * A human-unit quote amount (`minAmountOut`, `gasDrop`, `minMiddleAmount`: JSON numbers) in base units of
 * `decimals`, exactly as swap-sdk src/utils.ts `getAmountOfFractionalAmount` computes it: `toFixed(cut + 1)`, then
 * the digits up to `cut = min(8, decimals)` decimals, then `parseUnits`. Its guards become MalformedResponseError;
 * a negative or astronomically large amount, which the SDK would not catch, is refused too.
 */
export function swiftFractionalAmount(amount: unknown, decimals: number, path: string): bigint {
  if (amount === null || amount === undefined) throw new MalformedResponseError(`${path} is missing`);
  if (typeof amount !== 'string' && typeof amount !== 'number')
    throw new MalformedResponseError(`${path} is not a number`);
  if (typeof amount === 'string' && amount.length === 0) throw new MalformedResponseError(`${path} is empty`);
  const value = Number(amount);
  if (!Number.isFinite(value) || value < 0 || value >= TO_FIXED_LIMIT)
    throw new MalformedResponseError(`${path} is not a usable amount`);
  const cut = Math.min(SWIFT_MAX_DECIMALS, decimals);
  const fixed = FIXED_PATTERNS[cut]?.exec(value.toFixed(cut + 1))?.[0];
  if (fixed === undefined) throw new MalformedResponseError(`${path} is not a usable amount`);
  return parseUnits(fixed, decimals);
}

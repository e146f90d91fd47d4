import { parseUnits } from 'viem';

/**
 * A human-unit amount (the explorer's `toAmount`, "12.345678") in base units, never through a float.
 * Digits past `decimals` are cut (floor), so a received amount is never overstated; anything that is not a
 * plain decimal (exponent notation, negative, empty) reads as unknown.
 */
export function humanToBaseUnits(value: unknown, decimals: number): bigint | null {
  const textValue = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof textValue !== 'string' || !/^[0-9]+(?:\.[0-9]+)?$/.test(textValue)) return null;
  const [whole = '0', fraction = ''] = textValue.split('.');
  const kept = fraction.slice(0, decimals);
  return parseUnits(kept === '' ? whole : `${whole}.${kept}`, decimals);
}

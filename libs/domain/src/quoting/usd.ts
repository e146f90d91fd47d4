/** USD figures are display numbers (never fed back into raw-amount math): sums that stay null when any part is. */
export function sumUsd(values: (number | null)[]): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return roundUsd(total);
}

/** Cents-and-below noise from float sums is not information: keep 6 decimals. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function parseUsd(value: string | null): number | null {
  return value === null ? null : Number(value);
}

/** input − output − fees, never below 0 (spec: fee and loss are different concepts and are not added together). */
export function lossBeyondFees(
  inputUsd: number | null,
  outputUsd: number | null,
  feeUsd: number | null,
): number | null {
  if (inputUsd === null || outputUsd === null || feeUsd === null) return null;
  return roundUsd(Math.max(0, inputUsd - outputUsd - feeUsd));
}

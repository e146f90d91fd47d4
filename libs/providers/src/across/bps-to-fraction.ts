/** Basis points as the decimal fraction Across takes (`50` → `"0.005"`), built as text so no float rounds it. */
export function bpsToFraction(bps: number): string {
  const whole = Math.floor(bps / 10000);
  const fraction = String(bps % 10000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

import { type Figure } from '../bench-figure';

export const RSS_TARGET_MB = 250;

/** A memory row: the service's resident memory after a load, per repeat, beside the bare baseline's where it ran. */
export function rssFigure(
  name: string,
  service: readonly (number | null)[],
  bare?: readonly (number | null)[],
): Figure {
  return {
    scenario: '5. memory and boot',
    name,
    unit: 'MB',
    samples: service.map((mb) => mb ?? NaN),
    ...(bare ? { baseline: { label: 'bare node:http', samples: bare.map((mb) => mb ?? NaN) } } : {}),
    target: { on: 'measured', op: '≤', value: RSS_TARGET_MB },
  };
}

import { type Figure, judgeFigure } from './bench-figure';
import { benchTable } from './bench-table';

describe('a figure whose target bounds what it adds to its baseline (ratioAs difference)', () => {
  const figure = (samples: number[]): Figure => ({
    scenario: '3. quote, 50 sources × 3 providers, source gas',
    name: 'p95 with source gas',
    unit: 'ms',
    samples,
    baseline: { label: 'QUOTE_SOURCE_GAS=false', samples: [500, 520, 540] },
    ratioAs: 'difference',
    target: { on: 'ratio', op: '≤', value: 20 },
  });

  it('judges the median of the per-repeat differences, not of the ratios', () => {
    expect(judgeFigure(figure([512, 535, 600]))).toMatchObject({
      ratio: { median: 15, min: 12, max: 60 },
      met: true,
    });
    expect(judgeFigure(figure([530, 545, 545]))).toMatchObject({ ratio: { median: 25 }, met: false });
  });

  it('prints the target as "added ≤" and the differences signed, in the unit', () => {
    const table = benchTable({ figures: [figure([512, 535, 530])], notes: [], repeats: 3 });
    const row = table.split('\n').find((line) => line.startsWith('| 3. quote'));
    expect(row).toBe(
      '| 3. quote, 50 sources × 3 providers, source gas | p95 with source gas | added ≤ 20.0 ms | ' +
        '530 ms (512 ms–535 ms) | 520 ms (QUOTE_SOURCE_GAS=false) | +12.0 ms (−10.0 ms–+15.0 ms) | yes |',
    );
    expect(table).toContain('(+/−: measured − baseline, where the target bounds what is added)');
  });
});

import { percentile } from './quote-stats';

/**
 * What a target bounds: the figure itself, or its ratio to the baseline measured beside it (with `ratioAs:
 * 'difference'`, what it adds to the baseline: measured − baseline).
 */
export interface Target {
  on: 'measured' | 'ratio';
  op: '≥' | '≤';
  value: number;
}

/**
 * One row of the `npm run bench` table: a figure measured once per repeat and, where the scenario carries one, its
 * baseline measured in the same repeat, so that a busy machine slows both alike and the ratio stays readable.
 */
export interface Figure {
  scenario: string;
  name: string;
  unit: string;
  /** One value per repeat; Infinity where what was measured never arrived. */
  samples: number[];
  baseline?: { label: string; samples: number[] };
  target?: Target;
  /**
   * Percent reads better than a multiple for throughput ratios; `none` where a ratio would mean nothing;
   * `difference`: the "ratio" is measured − baseline, in the figure's unit (what the measured side adds).
   */
  ratioAs?: 'percent' | 'times' | 'difference' | 'none';
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface FigureVerdict {
  measured: Spread;
  baseline: Spread | null;
  /** Per-repeat ratios measured ÷ baseline (or differences, `ratioAs: 'difference'`), their median and spread. */
  ratio: Spread | null;
  met: boolean | null;
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: percentile(values, 50), min: Math.min(...values), max: Math.max(...values) };
}

/** The median over repeats and whether the target holds for it. */
export function judgeFigure(figure: Figure): FigureVerdict {
  const measured = spreadOf(figure.samples);
  const baselineSamples = figure.baseline?.samples;
  const baseline = baselineSamples ? spreadOf(baselineSamples) : null;
  const ratio =
    baselineSamples && figure.ratioAs !== 'none'
      ? spreadOf(
          figure.samples.map((value, i) =>
            figure.ratioAs === 'difference' ? value - baselineSamples[i] : value / baselineSamples[i],
          ),
        )
      : null;
  const { target } = figure;
  let met: boolean | null = null;
  if (target) {
    const judged = target.on === 'ratio' ? ratio?.median : measured.median;
    met =
      judged === undefined || Number.isNaN(judged)
        ? false
        : target.op === '≥'
          ? judged >= target.value
          : judged <= target.value;
  }
  return { measured, baseline, ratio, met };
}

/** What a scenario hands back: its rows, and lines that say how they were measured. */
export interface ScenarioResult {
  figures: Figure[];
  notes: string[];
}

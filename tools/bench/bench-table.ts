import { arch, availableParallelism, cpus, platform } from 'node:os';
import { type Figure, judgeFigure, type Spread, type Target } from './bench-figure';

/**
 * The `npm run bench` report: one Markdown table, a row per figure in scenario order, each with its target, the
 * median over the repeats and their spread, the baseline measured beside it, their ratio and whether the target is
 * met; then the notes that say how each scenario was measured.
 */
export function benchTable(params: {
  figures: readonly Figure[];
  notes: readonly string[];
  repeats: number;
}): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const rows = [...params.figures]
    .map((figure, i) => ({ figure, i }))
    .sort((a, b) => parseInt(a.figure.scenario, 10) - parseInt(b.figure.scenario, 10) || a.i - b.i)
    .map(({ figure }) => row(figure));
  return [
    '### `npm run bench`',
    '',
    `${new Date().toISOString().slice(0, 10)}; ${availableParallelism()} CPUs (${cpu}), Node ${process.version}, ` +
      `${platform()} ${arch()}; the service, its baseline and the load generator share these cores. Measured: the ` +
      `median of ${params.repeats} repeat${params.repeats === 1 ? '' : 's'}` +
      `${params.repeats > 1 ? ' (min–max)' : ''}; baseline: measured beside it in the same repeats; ratio: measured ÷ baseline` +
      `${params.figures.some((f) => f.ratioAs === 'difference') ? ' (+/−: measured − baseline, where the target bounds what is added)' : ''}.`,
    '',
    '| scenario | figure | target | measured | baseline | ratio | met |',
    '| --- | --- | --- | --: | --: | --: | :-: |',
    ...rows,
    '',
    ...params.notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

function row(figure: Figure): string {
  const verdict = judgeFigure(figure);
  const value = (n: number) => formatValue(n, figure.unit);
  const spread = (s: Spread, format: (n: number) => string) =>
    s.min === s.max ? format(s.median) : `${format(s.median)} (${format(s.min)}–${format(s.max)})`;
  const ratio = (n: number) =>
    !Number.isFinite(n)
      ? '∞'
      : figure.ratioAs === 'difference'
        ? `${n < 0 ? '−' : '+'}${value(Math.abs(n))}`
        : figure.ratioAs === 'percent'
          ? `${Math.round(n * 100)} %`
          : `${n.toFixed(2)}×`;
  const cells = [
    figure.scenario,
    figure.name,
    figure.target ? formatTarget(figure.target, figure) : '—',
    spread(verdict.measured, value),
    verdict.baseline && figure.baseline
      ? `${value(verdict.baseline.median)} (${figure.baseline.label})`
      : '—',
    verdict.ratio ? spread(verdict.ratio, ratio) : '—',
    verdict.met === null ? '—' : verdict.met ? 'yes' : '**no**',
  ];
  return `| ${cells.join(' | ')} |`;
}

function formatTarget(target: Target, figure: Figure): string {
  if (target.on === 'measured') return `${target.op} ${formatValue(target.value, figure.unit)}`;
  if (figure.ratioAs === 'difference') return `added ${target.op} ${formatValue(target.value, figure.unit)}`;
  const value = figure.ratioAs === 'percent' ? `${target.value * 100} %` : `${target.value}×`;
  return `ratio ${target.op} ${value}`;
}

/** Enough digits to compare, no more: 0.84 ms, 12.3 ms, 1 234/s. */
export function formatValue(n: number, unit: string): string {
  if (Number.isNaN(n)) return 'n/a';
  if (!Number.isFinite(n)) return '∞';
  const digits = unit === '/s' || unit === 'MB' || Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  const text = n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const grouped = text.replace(/,/g, ' ');
  return unit === '×' ? `${grouped}×` : unit === '/s' ? `${grouped}/s` : `${grouped} ${unit}`;
}

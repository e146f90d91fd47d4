import { type Figure } from '../bench-figure';
import { type ServerLoad } from '../load/measure-load';
import { rssFigure } from './rss-figure';

/** The ratio the issue asks of the service's throughput against the bare baseline. */
export const THROUGHPUT_TARGET = 0.5;

/** Rows that set one figure of the service's loads beside the same figure of the bare baseline's, repeat by repeat. */
export function sideBySide(scenario: string, service: readonly ServerLoad[], bare: readonly ServerLoad[]) {
  return (name: string, pick: (load: ServerLoad) => number, more: Partial<Figure> = {}): Figure => ({
    scenario,
    name,
    unit: 'ms',
    samples: service.map(pick),
    baseline: { label: 'bare node:http', samples: bare.map(pick) },
    ...more,
  });
}

/** Rows of one closed-loop load: requests/s (the target is on its ratio), p50 and p99, and the service's RSS. */
export function loadFigures(
  scenario: string,
  label: string,
  service: readonly ServerLoad[],
  bare: readonly ServerLoad[],
): Figure[] {
  const row = sideBySide(scenario, service, bare);
  return [
    row('requests/s', (l) => l.perSecond, {
      unit: '/s',
      target: { on: 'ratio', op: '≥', value: THROUGHPUT_TARGET },
      ratioAs: 'percent',
    }),
    row('p50 latency', (l) => l.p50),
    row('p99 latency', (l) => l.p99),
    rssFigure(
      `service RSS after the ${label} load`,
      service.map((l) => l.rssMb),
      bare.map((l) => l.rssMb),
    ),
  ];
}

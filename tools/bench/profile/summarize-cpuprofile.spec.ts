import { type CpuProfile, moduleOf, summarizeCpuProfile } from './summarize-cpuprofile';

const frame = (functionName: string, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});
const REPO = 'file:///repo';

/**
 * (root) → handle (libs/gateway) → readStream (libs/event-store) → parse (npm:fast-json, recursing into itself),
 * and (idle) and (garbage collector) beside it. Samples every 100 µs.
 */
function profile(): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
      { id: 2, callFrame: frame('handle', `${REPO}/libs/gateway/src/h.ts`, 9), children: [3] },
      { id: 3, callFrame: frame('readStream', `${REPO}/libs/event-store/src/r.ts`, 19), children: [4] },
      { id: 4, callFrame: frame('parse', `${REPO}/node_modules/fast-json/index.js`, 0), children: [5] },
      { id: 5, callFrame: frame('parse', `${REPO}/node_modules/fast-json/index.js`, 0), children: [] },
      { id: 6, callFrame: frame('(idle)'), children: [] },
      { id: 7, callFrame: frame('(garbage collector)'), children: [] },
    ],
    startTime: 1_000,
    // Sample i at startTime + 100·(i+1); each stands for the 100 µs until the next, the last until endTime.
    samples: [2, 3, 5, 5, 4, 6, 6, 7],
    timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100],
    endTime: 1_900,
  };
}

describe('summarizeCpuProfile', () => {
  it('adds self time to the sampled function and inclusive time to each caller once, recursion included', () => {
    const summary = summarizeCpuProfile(profile());
    const fn = (name: string) =>
      summary.functions.find((r) => r.name.startsWith(`${name} `) || r.name === name);

    expect(summary.sampledMs).toBeCloseTo(0.8);
    expect(summary.busyMs).toBeCloseTo(0.6);
    expect(fn('handle')).toMatchObject({ selfMs: 0.1 });
    expect(fn('handle')?.totalMs).toBeCloseTo(0.5);
    expect(fn('readStream')?.selfMs).toBeCloseTo(0.1);
    expect(fn('readStream')?.totalMs).toBeCloseTo(0.4);
    // parse recursing into itself: its three samples count once each, not once per frame.
    expect(fn('parse')?.selfMs).toBeCloseTo(0.3);
    expect(fn('parse')?.totalMs).toBeCloseTo(0.3);
    expect(fn('(garbage collector)')?.selfMs).toBeCloseTo(0.1);
    expect(fn('(idle)')).toBeUndefined();
    expect(summary.functions[0]?.name).toMatch(/^parse /);
    expect(summary.modules.map((m) => [m.name, Number(m.selfMs.toFixed(1))])).toEqual([
      ['npm:fast-json', 0.3],
      ['libs/gateway', 0.1],
      ['libs/event-store', 0.1],
      ['(garbage collector)', 0.1],
    ]);
  });

  it('keeps only the samples inside the given windows', () => {
    // 1_300..1_450 holds the samples at 1_300 and 1_400: both in the inner parse (node 5).
    const summary = summarizeCpuProfile(profile(), { windows: [{ startUs: 1_300, endUs: 1_450 }] });
    const rows = summary.functions.map((r) => [
      r.name.split(' ')[0],
      +r.selfMs.toFixed(1),
      +r.totalMs.toFixed(1),
    ]);

    expect(summary.sampledMs).toBeCloseTo(0.2);
    expect(rows).toEqual([
      ['parse', 0.2, 0.2],
      ['readStream', 0, 0.2],
      ['handle', 0, 0.2],
    ]);
  });

  it('names modules by package, project, node internals or V8', () => {
    expect(moduleOf('file:///x/node_modules/@nestjs/core/router/a.js', 'f')).toBe('npm:@nestjs/core');
    expect(moduleOf('/x/node_modules/rxjs/dist/cjs/a.js', 'f')).toBe('npm:rxjs');
    expect(moduleOf('/work/apps/standalone/src/main.ts', 'f')).toBe('apps/standalone');
    expect(moduleOf('node:internal/util', 'f')).toBe('node:internal');
    expect(moduleOf('', 'writev')).toBe('(v8)');
    expect(moduleOf('', '(program)')).toBe('(program)');
  });
});

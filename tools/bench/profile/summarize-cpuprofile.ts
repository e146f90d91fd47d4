import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The parts of V8's .cpuprofile (as `node --cpu-prof` writes it) this summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  /** Microseconds, on the monotonic clock `process.hrtime` reads (Linux: CLOCK_MONOTONIC). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A time window to keep, in microseconds of the monotonic clock (see CpuProfile.startTime). */
export interface ProfileWindow {
  startUs: number;
  endUs: number;
}

export interface SummaryRow {
  name: string;
  /** Milliseconds sampled in this function (or module) itself. */
  selfMs: number;
  /** Milliseconds sampled in it or anything it called (each sample counted once per row). */
  totalMs: number;
}

export interface ProfileSummary {
  /** Milliseconds sampled, idle included. */
  sampledMs: number;
  /** Milliseconds sampled outside `(idle)`. */
  busyMs: number;
  functions: SummaryRow[];
  modules: SummaryRow[];
}

const PSEUDO = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/**
 * What a module is, from a call frame's URL: `npm:<package>` under node_modules, the repo's own project
 * (`libs/gateway`, `apps/standalone`, `tools/bench`), `node:internal` for Node's own JavaScript, and `(v8)` for
 * native frames and V8's pseudo-frames (GC, program, idle).
 */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return PSEUDO.has(functionName) ? functionName : '(v8)';
  if (url.startsWith('node:')) return 'node:internal';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + '/node_modules/'.length).split('/');
    return `npm:${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const own = /\/(apps|libs|tools)\/([^/]+)\//.exec(path);
  return own ? `${own[1]}/${own[2]}` : path;
}

function functionKey(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/');
  const short = file.replace(/^.*\/((apps|libs|tools)\/)/, '$1');
  return `${name} ${short}:${frame.lineNumber + 1}`;
}

/**
 * Self and inclusive time per function and per module over the samples of a profile, optionally only those inside
 * the given windows (e.g. the load runs of one endpoint, so boot and other loads are left out).
 */
export function summarizeCpuProfile(
  profile: CpuProfile,
  options: { windows?: readonly ProfileWindow[]; top?: number } = {},
): ProfileSummary {
  const top = options.top ?? 25;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const fnSelf = new Map<string, number>();
  const fnTotal = new Map<string, number>();
  const modSelf = new Map<string, number>();
  const modTotal = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let sampledUs = 0;
  let idleUs = 0;
  let t = profile.startTime;
  const inWindow = (ts: number) =>
    !options.windows || options.windows.some((w) => ts >= w.startUs && ts <= w.endUs);

  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one (the last: until the profile's end).
    const next = i + 1 < profile.timeDeltas.length ? (profile.timeDeltas[i + 1] ?? 0) : profile.endTime - t;
    const us = Math.max(0, next);
    if (!inWindow(t)) continue;
    const leaf = byId.get(profile.samples[i]);
    if (!leaf) continue;
    sampledUs += us;
    if (leaf.callFrame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    add(fnSelf, functionKey(leaf.callFrame), us);
    add(modSelf, moduleOf(leaf.callFrame.url, leaf.callFrame.functionName), us);
    const seenFn = new Set<string>();
    const seenMod = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(root)') continue;
      const fk = functionKey(frame);
      const mk = moduleOf(frame.url, frame.functionName);
      if (!seenFn.has(fk)) {
        seenFn.add(fk);
        add(fnTotal, fk, us);
      }
      if (!seenMod.has(mk)) {
        seenMod.add(mk);
        add(modTotal, mk, us);
      }
    }
  }
  const rows = (self: Map<string, number>, total: Map<string, number>) =>
    [...total.keys()]
      .map((name) => ({ name, selfMs: (self.get(name) ?? 0) / 1000, totalMs: total.get(name)! / 1000 }))
      .sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs)
      .slice(0, top);
  return {
    sampledMs: sampledUs / 1000,
    busyMs: (sampledUs - idleUs) / 1000,
    functions: rows(fnSelf, fnTotal),
    modules: rows(modSelf, modTotal),
  };
}

/** The summary as two markdown tables (self-time order), each row also as a share of the busy time. */
export function formatSummary(summary: ProfileSummary, perRequestOf?: number): string {
  const pct = (ms: number) => `${((100 * ms) / Math.max(summary.busyMs, 1e-9)).toFixed(1)} %`;
  const perReq = (ms: number) => (perRequestOf ? ` | ${((ms / perRequestOf) * 1000).toFixed(1)} µs` : '');
  const head = (what: string) =>
    `| ${what} | self ms | self % | total ms | total %${perRequestOf ? ' | self per request' : ''} |\n` +
    `| --- | ---: | ---: | ---: | ---:${perRequestOf ? ' | ---:' : ''} |`;
  const table = (rows: SummaryRow[]) =>
    rows
      .map(
        (r) =>
          `| ${r.name.replace(/\|/g, '\\|')} | ${r.selfMs.toFixed(1)} | ${pct(r.selfMs)} | ${r.totalMs.toFixed(1)} | ` +
          `${pct(r.totalMs)}${perReq(r.selfMs)} |`,
      )
      .join('\n');
  return [
    `sampled ${summary.sampledMs.toFixed(0)} ms, busy (not idle) ${summary.busyMs.toFixed(0)} ms` +
      (perRequestOf
        ? `, ${perRequestOf} requests: ${((summary.busyMs / perRequestOf) * 1000).toFixed(0)} µs busy each`
        : ''),
    '',
    head('module'),
    table(summary.modules),
    '',
    head('function'),
    table(summary.functions),
  ].join('\n');
}

/** One load run recorded by `npm run bench -- --profile DIR` in DIR/windows.jsonl. */
export interface RecordedWindow extends ProfileWindow {
  pid: number;
  path: string;
  completed: number;
}

/**
 * `node tools/run-ts.js tools/bench/profile/summarize-cpuprofile.ts FILE.cpuprofile [--windows DIR/windows.jsonl]
 * [--match TEXT] [--top N]`: prints the top functions and modules by self time. With `--windows`, only the samples
 * taken during the load runs recorded there (of that process, whose path contains `--match`), and the time per request.
 */
function main(argv: string[]): void {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!file) {
    process.stderr.write(
      'usage: summarize-cpuprofile FILE.cpuprofile [--windows FILE] [--match TEXT] [--top N]\n',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const windowsFile = value('--windows');
  const pid = /(?:^|\/)CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1];
  const windows = windowsFile
    ? readFileSync(windowsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RecordedWindow)
        .filter(
          (w) => (pid === undefined || String(w.pid) === pid) && w.path.includes(value('--match') ?? ''),
        )
    : undefined;
  const summary = summarizeCpuProfile(profile, { windows, top: Number(value('--top') ?? 25) });
  const requests = windows?.reduce((n, w) => n + w.completed, 0);
  process.stdout.write(`${formatSummary(summary, requests || undefined)}\n`);
}

// Run as a script (tools/run-ts.js puts the entry in argv[1]), not when a spec imports it.
if (process.argv[1] && resolve(process.argv[1]) === __filename) main(process.argv.slice(2));

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type EventStore, MemoryEventStore, SqliteEventStore } from '@svc/event-store';
import { EventStoreNonceStore, NonceRegistry, type NonceStore, SqliteNonceStore } from '@svc/gateway';

/**
 * Micro-benchmark of the nonce write a signed request costs: N binds of fresh nonces, one after the other, through
 * NonceRegistry, for each way of keeping them: streams (EventStoreNonceStore: the partner's nonce buckets, an append
 * then a read of the nonce's first binding; what EventStoreDB and the memory store use) and the SQLite table. Also "check + bind", the pair the pipeline runs per request (steps 6 and 9). Not a test:
 *   node tools/run-ts.js tools/bench/nonce-store.ts [N=20000] [runs=3]
 * Prints the median ops/s of the runs with their range, the median CPU time per op of this process, and the size
 * of the files the binds left behind.
 */

const N = Number(process.argv[2] ?? 20_000);
const RUNS = Number(process.argv[3] ?? 3);
const PARTNER = 'partner-bench';
const TUPLE = 'f'.repeat(64);

interface Subject {
  name: string;
  open(dir: string): { nonces: NonceStore; close(): Promise<void> };
}

const overEventStore = (open: (dir: string) => EventStore) => (dir: string) => {
  const store = open(dir);
  return { nonces: new EventStoreNonceStore(store), close: () => store.close() };
};
const table = (dir: string) => {
  const nonces = SqliteNonceStore.open({ file: join(dir, 'requests.sqlite') });
  return { nonces, close: () => nonces.close() };
};

/**
 * The event store's file as a running service has it: already in WAL mode, so its connection runs
 * synchronous=NORMAL like the table's (the connection that creates a file and switches it to WAL keeps FULL).
 */
function reopenedEventStore(dir: string): EventStore {
  const file = join(dir, 'events.sqlite');
  void SqliteEventStore.open({ file }).close();
  return SqliteEventStore.open({ file });
}

const SUBJECTS: Subject[] = [
  { name: 'bucket streams, SQLite event store', open: overEventStore(reopenedEventStore) },
  { name: 'bucket streams, memory event store', open: overEventStore(() => new MemoryEventStore()) },
  { name: 'table, SQLite (EVENT_STORE=sqlite)', open: table },
];

interface Run {
  opsPerSecond: number;
  /** CPU time of this process per op (user + system): steadier than wall time on a shared machine. */
  cpuMicros: number;
  bytes: number;
}

async function measure(subject: Subject, withCheck: boolean): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nonce-'));
  const opened = subject.open(dir);
  const registry = new NonceRegistry(opened.nonces);
  try {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const nonce = `nonce-${i.toString(36).padStart(16, '0')}`;
      if (withCheck && !(await registry.isAvailable(PARTNER, nonce, TUPLE))) throw new Error('nonce taken');
      if (!(await registry.bind(PARTNER, nonce, TUPLE, Date.now()))) throw new Error('nonce refused');
    }
    const opsPerSecond = N / ((performance.now() - started) / 1000);
    const cpu = process.cpuUsage(cpuBefore);
    await opened.close();
    return { opsPerSecond, cpuMicros: (cpu.user + cpu.system) / N, bytes: sizeOf(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sizeOf(dir: string): number {
  return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  process.stdout.write(`nonce binds: N=${N}, ${RUNS} runs each, median ops/s [min-max]\n\n`);
  const rows: string[][] = [
    ['store', 'bind ops/s', 'bind CPU µs/op', 'check + bind ops/s', 'check + bind CPU µs/op', 'files after'],
  ];
  for (const subject of SUBJECTS) {
    const row = [subject.name];
    let bytes = 0;
    for (const withCheck of [false, true]) {
      const runs: Run[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(await measure(subject, withCheck));
      const rates = runs.map((run) => run.opsPerSecond);
      row.push(`${fmt(median(rates))} [${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))}]`);
      row.push(median(runs.map((run) => run.cpuMicros)).toFixed(1));
      bytes = runs[0].bytes;
    }
    row.push(bytes === 0 ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
    rows.push(row);
    process.stderr.write(`done: ${subject.name}\n`);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  process.stdout.write(
    [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n') + '\n',
  );
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

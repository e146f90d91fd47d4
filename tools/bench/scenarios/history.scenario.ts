import { randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { API_PREFIX } from '@svc/contract';
import { openReadModelDatabase, ReadModelSnapshotter } from '@svc/event-store';
import { type Figure, type ScenarioResult } from '../bench-figure';
import { log } from '../bench-failure';
import { type BenchOptions } from '../bench-options';
import { SERVICE_FEE_RECIPIENT, writeBenchPartnersFile } from '../bench-partner';
import { startChildServer } from '../child/start-child-server';
import {
  historyAttemptId,
  historyRecipient,
  historyTxHash,
  historyWallet,
  type HistoryShape,
  seededBefore,
  seedHistory,
} from '../history/seed-history';
import { signedPost } from '../distributed/signed-post';
import { type LoadRequest } from '../load/drive-load';
import { measureLoad } from '../load/measure-load';
import { type BenchPartner, signedGet } from '../load/signed-api-request';
import { processRssMb } from '../process-rss';

const START_TARGET_MS = 3000;
const RSS_TARGET_MB = 250;
/**
 * Issue 22 item 2 asks that a new replica "serve within seconds whatever the history", with no figure: 10 s is our
 * reading at 1 000 000 attempts, where copying the 1.7 GB snapshot alone takes about 6 s on this machine's disk.
 */
const NEW_REPLICA_TARGET_MS = 10_000;
/** Every p50 within this multiple of its figure at the smallest history. */
const FLAT_TARGET = 1.5;

const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');
const label = (shape: HistoryShape) =>
  `${count(shape.attempts)} attempts, ${shape.wallets === 1 ? 'one wallet' : `${count(shape.wallets)} wallets`}`;

/** The requests of the scenario's loads, each for a random stored attempt. */
function endpoints(partner: BenchPartner, shape: HistoryShape): Record<string, () => LoadRequest> {
  const random = () => Math.floor(Math.random() * shape.attempts);
  const search = (body: unknown) =>
    signedPost(partner, `${API_PREFIX}/attempts/search`, Buffer.from(JSON.stringify(body)), randomUUID());
  return {
    'search by wallet': () => search({ walletAddress: historyWallet(random() % shape.wallets), limit: 20 }),
    'search by recipient and status': () =>
      search({ recipient: historyRecipient(random() % shape.wallets), status: ['settled'], limit: 20 }),
    'transaction lookup': () =>
      signedGet(partner, `${API_PREFIX}/transactions/1/${historyTxHash(random())}/attempt`),
    'status read': () => signedGet(partner, `${API_PREFIX}/attempts/${historyAttemptId(random())}/status`),
    'webhook list': () => signedGet(partner, `${API_PREFIX}/webhooks/events`),
  };
}

/** Polls a signed ping from spawn until it answers 200: what "serving" means to a partner. */
async function untilSignedPing(url: string, partner: BenchPartner, started: number): Promise<number> {
  for (;;) {
    const request = signedGet(partner, `${API_PREFIX}/ping`);
    const ok = await fetch(url + request.path, { headers: request.headers })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const quiet = { info: () => undefined, warn: () => undefined };

/** `npm run service`'s entry on a seeded store, with only what it needs set (and `more`). */
function startService(
  name: string,
  dataDir: string,
  partnersFile: string,
  more: Record<string, string> = {},
) {
  return startChildServer({
    name,
    entry: 'apps/standalone/src/main.ts',
    env: {
      DATA_DIR: dataDir,
      EVENT_STORE: 'sqlite',
      LOG_LEVEL: 'warn',
      SERVICE_FEE_RECIPIENT,
      PARTNERS_FILE: partnersFile,
      ...more,
    },
    timeoutMs: 600_000,
  });
}

/**
 * Reads every file of the store once (into the OS page cache): a store seeded long before the run (`--history-dir`)
 * would otherwise be measured from the disk and the smallest, just written, from memory.
 */
async function readThrough(dataDir: string): Promise<{ ms: number; mb: number }> {
  const started = performance.now();
  let bytes = 0;
  for (const name of readdirSync(dataDir).filter((f) => f.endsWith('.sqlite'))) {
    for await (const chunk of createReadStream(join(dataDir, name), { highWaterMark: 1 << 20 }))
      bytes += (chunk as Buffer).length;
  }
  return { ms: performance.now() - started, mb: bytes / 1e6 };
}

/** A snapshot of the store's read models, as a replica writes it into READ_MODELS_SNAPSHOT_DIR (ADR 0007). */
async function snapshotOf(dataDir: string, dir: string): Promise<{ dir: string; ms: number; mb: number }> {
  rmSync(dir, { recursive: true, force: true });
  const db = openReadModelDatabase(join(dataDir, 'read-models.sqlite'));
  const started = performance.now();
  try {
    const written = await new ReadModelSnapshotter(db, {
      dir,
      everyMs: 1,
      instanceId: 'bench',
      logger: quiet,
    }).snapshot();
    return { dir, ms: performance.now() - started, mb: statSync(written.file).size / 1e6 };
  } finally {
    db.close();
  }
}

/**
 * A replica that starts on the store with a new, empty read-model directory and the snapshot directory (as a new
 * EventStoreDB replica would): the time from spawn to its first search answered with the wallet's attempts.
 */
async function newReplicaServes(
  dataDir: string,
  snapshotDir: string,
  replicaDir: string,
  partnersFile: string,
  partner: BenchPartner,
  shape: HistoryShape,
): Promise<number> {
  rmSync(replicaDir, { recursive: true, force: true });
  const started = performance.now();
  const replica = await startService('replica', dataDir, partnersFile, {
    READ_MODELS_DIR: replicaDir,
    READ_MODELS_SNAPSHOT_DIR: snapshotDir,
    READ_MODELS_SNAPSHOT_MINUTES: '1440',
  });
  try {
    const search = endpoints(partner, shape)['search by wallet'];
    for (;;) {
      const request = search();
      const answer = await fetch(replica.url + request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      }).catch(() => null);
      if (answer?.status === 200) {
        const body = (await answer.json()) as { attempts?: unknown[] };
        if (!body.attempts?.length) throw new Error('the new replica answered a search with no attempts');
        return performance.now() - started;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await replica.stop();
    rmSync(replicaDir, { recursive: true, force: true });
  }
}

/**
 * Issue 22's history benchmark: stores of 10 000, 100 000 and 1 000 000 settled attempts spread over many wallets, and
 * 100 000 on one wallet and one recipient, each seeded as a deployment holds it after months (seedHistory: events,
 * checkpoints and read models); on each, `npm run service`'s entry is started `repeats` times: the time from spawn to
 * a served signed ping, RSS after boot, sequential signed reads of each lookup (p50), RSS after them. Every figure is
 * shown beside the same figure at the smallest store, measured in the same run.
 */
export async function historyScenario(options: BenchOptions): Promise<ScenarioResult> {
  const result: ScenarioResult = { figures: [], notes: [] };
  const work = mkdtempSync(join(tmpdir(), 'bench-history-'));
  const partnersFile = join(work, 'partners.json');
  const partner = writeBenchPartnersFile(partnersFile);
  type Measured = {
    startMs: number[];
    bootRss: number[];
    loadRss: number[];
    p50: Record<string, number[]>;
    replicaMs: number[];
  };
  const measured: Measured[] = [];
  try {
    for (const shape of options.history.shapes) {
      const keep = options.history.seededDir;
      const dataDir = join(keep ?? work, `data-${shape.attempts}-${shape.wallets}`);
      const reused = keep === undefined ? null : seededBefore(dataDir, shape, partner.partnerId);
      if (reused === null) {
        rmSync(dataDir, { recursive: true, force: true });
        log(`history: seeding ${label(shape)}…`);
      }
      const seeded = reused ?? (await seedHistory(dataDir, shape, partner.partnerId));
      result.notes.push(
        `History, ${label(shape)}: ${count(seeded.events)} events (${seeded.fileMb.toFixed(0)} MB) written in ` +
          `${(seeded.seedMs / 1000).toFixed(1)} s; the read models projected from the whole log once in ` +
          `${(seeded.projectMs / 1000).toFixed(1)} s (what a deployment's projections did as its history grew)` +
          `${reused ? '; seeded by an earlier run (--history-dir)' : ''}.`,
      );
      const m: Measured = { startMs: [], bootRss: [], loadRss: [], p50: {}, replicaMs: [] };
      const snapshot = await snapshotOf(dataDir, join(work, 'snapshots'));
      const warmed = await readThrough(dataDir);
      result.notes.push(
        `History, ${label(shape)}: the store's files (${warmed.mb.toFixed(0)} MB) read once before the starts in ` +
          `${(warmed.ms / 1000).toFixed(1)} s, so every size starts with them in the OS page cache, as the ` +
          'smallest, just written, has them anyway.',
      );
      result.notes.push(
        `History, ${label(shape)}: a snapshot of the read models (${snapshot.mb.toFixed(0)} MB) written in ` +
          `${(snapshot.ms / 1000).toFixed(1)} s.`,
      );
      for (let repeat = 0; repeat < options.repeats; repeat++) {
        const started = performance.now();
        const service = await startService('service', dataDir, partnersFile);
        try {
          m.startMs.push(await untilSignedPing(service.url, partner, started));
          m.bootRss.push(processRssMb(service.pid) ?? NaN);
          for (const [name, next] of Object.entries(endpoints(partner, shape))) {
            await measureLoad(service, { concurrency: 1, requests: 5, next }); // warm-up
            const load = await measureLoad(service, {
              concurrency: 1,
              requests: options.history.requests,
              next,
            });
            (m.p50[name] ??= []).push(load.p50);
          }
          m.loadRss.push(processRssMb(service.pid) ?? NaN);
          log(
            `  ${label(shape)}, repeat ${repeat + 1}: signed ping after ${m.startMs.at(-1)!.toFixed(0)} ms, ` +
              `RSS ${m.bootRss.at(-1)!.toFixed(0)} → ${m.loadRss.at(-1)!.toFixed(0)} MB, ` +
              Object.entries(m.p50)
                .map(([name, v]) => `${name} p50 ${v.at(-1)!.toFixed(2)} ms`)
                .join(', '),
          );
        } finally {
          await service.stop();
        }
        m.replicaMs.push(
          await newReplicaServes(dataDir, snapshot.dir, join(work, 'replica'), partnersFile, partner, shape),
        );
        log(
          `  ${label(shape)}, repeat ${repeat + 1}: a new replica from the snapshot served a search after ` +
            `${m.replicaMs.at(-1)!.toFixed(0)} ms`,
        );
      }
      measured.push(m);
      rmSync(snapshot.dir, { recursive: true, force: true });
      if (keep === undefined) rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const [first] = measured;
  const baseline = (samples: number[]) => ({ label: label(options.history.shapes[0]), samples });
  options.history.shapes.forEach((shape, i) => {
    const m = measured[i];
    const row = (
      name: string,
      unit: string,
      samples: number[],
      base: number[],
      target?: Figure['target'],
    ) => ({
      scenario: '7. history',
      name: `${name}, ${label(shape)}`,
      unit,
      samples,
      baseline: baseline(base),
      ratioAs: 'times' as const,
      ...(target ? { target } : {}),
    });
    result.figures.push(
      row('spawn to a served signed ping', 'ms', m.startMs, first.startMs, {
        on: 'measured',
        op: '≤',
        value: START_TARGET_MS,
      }),
      row('a new replica from a snapshot: spawn to a served search', 'ms', m.replicaMs, first.replicaMs, {
        on: 'measured',
        op: '≤',
        value: NEW_REPLICA_TARGET_MS,
      }),
      row('RSS after boot', 'MB', m.bootRss, first.bootRss, {
        on: 'measured',
        op: '≤',
        value: RSS_TARGET_MB,
      }),
      row('RSS after the reads', 'MB', m.loadRss, first.loadRss, {
        on: 'measured',
        op: '≤',
        value: RSS_TARGET_MB,
      }),
      ...Object.keys(m.p50).map((name) =>
        row(`${name} p50`, 'ms', m.p50[name], first.p50[name], { on: 'ratio', op: '≤', value: FLAT_TARGET }),
      ),
    );
  });
  result.notes.push(
    `History: ${options.history.requests} sequential signed requests per endpoint and repeat, each for a random ` +
      'stored attempt (its wallet, recipient or source transaction); the service started on each store as ' +
      '`npm run service` starts, with only DATA_DIR, PARTNERS_FILE and SERVICE_FEE_RECIPIENT set.',
  );
  return result;
}

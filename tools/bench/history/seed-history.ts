import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { attemptStreamId, webhookStreamId } from '@svc/domain';
import {
  encodeSequencePosition,
  openReadModelDatabase,
  type Projection,
  ProjectionRunner,
  SqliteEventStore,
} from '@svc/event-store';
import { writeWorkerCheckpoint } from '@svc/leases';
import { attemptLookupProjection, TRACKER_LEASE_GROUP } from '@svc/settlement';
import { DISPATCHER_LEASE_GROUP, OUTBOX_SUBSCRIPTION_ID, webhookEventsProjection } from '@svc/webhooks';
import { benchPrepared } from '../webhook-seed';

/** What a seeded history looks like. */
export interface HistoryShape {
  attempts: number;
  /** Attempts are spread round-robin over this many wallets and as many recipients (1: one wallet, one recipient). */
  wallets: number;
}

export const historyWallet = (w: number): string => `0x${(w + 1).toString(16).padStart(40, '0')}`;
export const historyRecipient = (w: number): string => `0x${(w + 1).toString(16).padStart(38, '0')}ee`;
export const historyAttemptId = (i: number): string => `at_hist_${i}`;
/** The source transaction attempt i reported (chain 1). */
export const historyTxHash = (i: number): string => `0x${(i + 1).toString(16).padStart(64, '0')}`;

export interface SeededHistory {
  /** Events written (attempt and webhook streams). */
  events: number;
  seedMs: number;
  /** The projections' first run over the whole history (what a deployment's read models did as it grew). */
  projectMs: number;
  fileMb: number;
}

const BATCH = 2_000;
/** Written last by seedHistory: the store is complete (and what it holds). */
const SEEDED_MARKER = 'seeded.json';

/**
 * A store seeded earlier for the same shape and partner (complete: its marker written last), or null. The history
 * benchmark's `--history-dir` uses it again instead of seeding anew.
 */
export function seededBefore(dataDir: string, shape: HistoryShape, partnerId: string): SeededHistory | null {
  const marker = join(dataDir, SEEDED_MARKER);
  if (!existsSync(marker)) return null;
  const saved = JSON.parse(readFileSync(marker, 'utf8')) as HistoryShape &
    SeededHistory & { partnerId: string };
  const same =
    saved.attempts === shape.attempts && saved.wallets === shape.wallets && saved.partnerId === partnerId;
  return same
    ? { events: saved.events, seedMs: saved.seedMs, projectMs: saved.projectMs, fileMb: saved.fileMb }
    : null;
}

/**
 * Writes a history of settled attempts into DATA_DIR's event store as a deployment that has run for months holds it,
 * then brings what a running deployment keeps beside it up to date: every attempt has its own creation time (one
 * second apart, the last one now), reported one source transaction, was submitted and settled, and had its two
 * webhooks delivered; the outbox relay's subscription, the tracker's and the dispatcher's checkpoints stand at the
 * end of the log, and the read models (lookups, webhook events) are projected with the service's own projections.
 *
 * The events are inserted straight into the store's tables in large transactions (rows exactly as SqliteEventStore
 * writes them: JSON data, `{}` metadata, recorded_at in ms): a million appends through the port, each fsynced, would
 * take hours. Run it while no service runs on DATA_DIR.
 */
export async function seedHistory(
  dataDir: string,
  shape: HistoryShape,
  partnerId: string,
  now = Date.now(),
): Promise<SeededHistory> {
  const file = join(dataDir, 'events.sqlite');
  await SqliteEventStore.open({ file }).close();
  const started = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertEvent = db.prepare(
    `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, expires_at)
     VALUES (?, ?, ?, ?, ?, '{}', ?, NULL)`,
  );
  const insertStream = db.prepare(
    'INSERT INTO streams (stream_id, revision, max_age, max_count) VALUES (?, ?, NULL, NULL)',
  );
  let events = 0;
  const write = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const attemptId = historyAttemptId(i);
      const createdAt = now - (shape.attempts - i) * 1000;
      const w = i % shape.wallets;
      const attempt = [
        {
          type: 'AttemptPrepared',
          data: {
            ...benchPrepared(attemptId, partnerId, createdAt),
            wallet: historyWallet(w),
            recipient: historyRecipient(w),
          },
        },
        {
          type: 'EvidenceReported',
          data: {
            reportId: `r_${i}`,
            reportedAt: createdAt + 10_000,
            submittedAt: null,
            chainResults: [{ chainId: 1, bundleId: null, txHashes: [historyTxHash(i)] }],
          },
        },
        { type: 'AttemptWalletSubmitted', data: { at: createdAt + 10_000 } },
        { type: 'AttemptSettled', data: { at: createdAt + 60_000 } },
      ];
      const ids = attempt.map(() => randomUUID());
      const webhook = [2, 3].flatMap((revision) => [
        {
          type: 'WebhookQueued',
          data: {
            eventId: ids[revision],
            event: revision === 2 ? 'attempt.wallet_submitted' : 'attempt.settled',
            attemptId,
            partnerId,
            lifecycleRevision: revision,
            occurredAt: createdAt + (revision === 2 ? 10_000 : 60_000),
            queuedAt: createdAt + (revision === 2 ? 10_000 : 60_000),
          },
        },
        {
          type: 'WebhookDelivered',
          data: {
            eventId: ids[revision],
            attempt: 1,
            at: createdAt + 61_000,
            httpStatus: 200,
            latencyMs: 12,
          },
        },
      ]);
      attempt.forEach((e, r) =>
        insertEvent.run(attemptStreamId(attemptId), r, ids[r], e.type, JSON.stringify(e.data), createdAt),
      );
      insertStream.run(attemptStreamId(attemptId), attempt.length - 1);
      webhook.forEach((e, r) =>
        insertEvent.run(
          webhookStreamId(attemptId),
          r,
          randomUUID(),
          e.type,
          JSON.stringify(e.data),
          createdAt,
        ),
      );
      insertStream.run(webhookStreamId(attemptId), webhook.length - 1);
      events += attempt.length + webhook.length;
    }
  });
  for (let from = 0; from < shape.attempts; from += BATCH)
    write(from, Math.min(shape.attempts, from + BATCH));
  const head = (db.prepare('SELECT MAX(position) AS head FROM events').get() as { head: number }).head;
  db.prepare(
    `INSERT INTO checkpoints (subscription_id, position) VALUES (?, ?)
     ON CONFLICT (subscription_id) DO UPDATE SET position = excluded.position`,
  ).run(OUTBOX_SUBSCRIPTION_ID, head);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seedMs = performance.now() - started;

  const store = SqliteEventStore.open({ file });
  try {
    const position = encodeSequencePosition(head);
    const settled = { settled: shape.attempts };
    await writeWorkerCheckpoint(
      store,
      TRACKER_LEASE_GROUP,
      { position, state: { open: [], census: { open: [], terminal: settled } } },
      randomUUID(),
    );
    await writeWorkerCheckpoint(
      store,
      DISPATCHER_LEASE_GROUP,
      { position, state: { open: [] } },
      randomUUID(),
    );
    const projecting = performance.now();
    const readModels = openReadModelDatabase(join(dataDir, 'read-models.sqlite'));
    for (const projection of [attemptLookupProjection, webhookEventsProjection] as Projection[])
      await new ProjectionRunner(store, readModels, projection, {
        refreshMs: 60_000,
        pageSize: 5_000,
      }).fresh();
    readModels.close();
    const projectMs = performance.now() - projecting;
    const fileMb = statSync(file).size / 1e6;
    const seeded = { events, seedMs, projectMs, fileMb };
    writeFileSync(join(dataDir, SEEDED_MARKER), JSON.stringify({ ...shape, partnerId, ...seeded }));
    return seeded;
  } finally {
    await store.close();
  }
}

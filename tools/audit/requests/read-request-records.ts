import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  idempotencyDecider,
  type IdempotencyResource,
  type IdempotencyState,
  idempotencyStreamId,
} from '@svc/domain';
import {
  EventClassifier,
  type EventStore,
  type QuarantinedEvent,
  readAllPaged,
  type RecordedEvent,
} from '@svc/event-store';
import { auditReads, foldStream } from '../history/stored-events';

/** How a stream id ends after `idempotency-<partner>-`: the key's sha256 in hex, nothing more. */
const KEY_DIGEST = /^[0-9a-f]{64}$/;

/** An Idempotency-Key record of one of the attempt's requests, wherever the gateway keeps it. */
export interface RequestRecord {
  /** Which request it is, by the endpoint its fingerprint names. */
  request: 'quote' | 'prepare' | 'submitted' | 'other';
  /** sha256 of the key: how the gateway names a key; the key itself only where an event recorded it. */
  keyDigest: string;
  key: string | null;
  where: string;
  state: IdempotencyState;
  /** The record's events where it is a stream (they join the timeline); none for a table row. */
  events: RecordedEvent[];
  /** Table rows only: the end of the retention, epoch ms. */
  expiresAt: number | null;
}

export interface RequestRecordsWanted {
  partnerId: string;
  /** Keys the attempt's events recorded (the quote's and the prepare's). */
  keys: string[];
  /** Records that completed with one of these (the attempt for prepare and submitted, the session for the quote). */
  resources: IdempotencyResource[];
}

/** The records found, and the events of the request streams read that their decider does not fold (findings). */
export interface RequestRecords {
  records: RequestRecord[];
  malformed: QuarantinedEvent[];
}

/**
 * The attempt's Idempotency-Key records, from both places the gateway keeps them: streams
 * `idempotency-<partner>-<sha256(key)>` in the event store (EventStoreDB, and SQLite stores written before the records
 * moved out) and the `idempotency_keys` table of DATA_DIR/requests.sqlite (SQLite now). Records live for the
 * retention (IDEMPOTENCY_RETENTION_HOURS, 24 h by default): an older attempt's are gone, which is not a finding.
 * Everything about where the records live is in this file, so the audit follows the gateway by changing only it.
 */
export async function readRequestRecords(
  source: { store: EventStore; requestsFile: string | null },
  wanted: RequestRecordsWanted,
): Promise<RequestRecords> {
  const digests = new Map(wanted.keys.map((key) => [digestOf(key), key]));
  const fromStreams = await readFromStreams(source.store, wanted, digests);
  const fromTable = source.requestsFile === null ? [] : readFromTable(source.requestsFile, wanted, digests);
  const order: RequestRecord['request'][] = ['quote', 'prepare', 'submitted', 'other'];
  return {
    records: [...fromStreams.records, ...fromTable].sort(
      (a, b) => order.indexOf(a.request) - order.indexOf(b.request),
    ),
    malformed: fromStreams.malformed,
  };
}

async function readFromStreams(
  store: EventStore,
  wanted: RequestRecordsWanted,
  digests: Map<string, string>,
): Promise<RequestRecords> {
  const prefix = idempotencyStreamId(wanted.partnerId, '');
  const streams = new Set([...digests.keys()].map((digest) => `${prefix}${digest}`));
  const malformed: QuarantinedEvent[] = [];
  // A submitted request's key is recorded nowhere but in its record: find those by the resource they completed with,
  // reading the partner's request streams through the idempotency decider's guards.
  const classifier = new EventClassifier(auditReads.idempotency);
  await readAllPaged(store, { after: undefined, streamPrefixes: [prefix] }, (recorded) => {
    // The prefix of partner `a` also matches the streams of partner `a-b`: the partner's own end in a digest alone.
    if (!KEY_DIGEST.test(recorded.streamId.slice(prefix.length))) return;
    const read = classifier.classify(recorded);
    if (read.kind === 'quarantined') malformed.push(read.quarantined);
    if (
      read.kind === 'event' &&
      read.event.type === 'RequestCompleted' &&
      completedWith(read.event.data.resource, wanted.resources)
    )
      streams.add(read.event.streamId);
  });
  const records: (RequestRecord | null)[] = await Promise.all(
    [...streams].map(async (streamId) => {
      const events = await store.readStream(streamId);
      if (events.length === 0) return null;
      const digest = streamId.slice(prefix.length);
      const folded = foldStream(idempotencyDecider, events);
      if (folded.refused !== null) {
        if (!malformed.some((m) => m.streamId === streamId)) malformed.push(folded.refused);
        return null;
      }
      return record(folded.state, digest, digests, `stream ${streamId}`, events, null);
    }),
  );
  return { records: records.filter((r): r is RequestRecord => r !== null), malformed };
}

function readFromTable(
  file: string,
  wanted: RequestRecordsWanted,
  digests: Map<string, string>,
): RequestRecord[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys'",
      )
      .get();
    if (table === undefined) return [];
    const rows = db
      .prepare<[string], { key_digest: string; state: string; expires_at: number }>(
        'SELECT key_digest, state, expires_at FROM idempotency_keys WHERE partner_id = ?',
      )
      .all(wanted.partnerId);
    return rows.flatMap((row) => {
      const state = JSON.parse(row.state) as IdempotencyState;
      const resource = state.status === 'completed' ? state.resource : null;
      if (!digests.has(row.key_digest) && !completedWith(resource, wanted.resources)) return [];
      return [
        record(state, row.key_digest, digests, `table idempotency_keys of ${file}`, [], row.expires_at),
      ];
    });
  } finally {
    db.close();
  }
}

function record(
  state: IdempotencyState,
  keyDigest: string,
  digests: Map<string, string>,
  where: string,
  events: RecordedEvent[],
  expiresAt: number | null,
): RequestRecord {
  const path = state.status === 'new' ? '' : state.fingerprint.path;
  return {
    request: requestOf(path),
    keyDigest,
    key: digests.get(keyDigest) ?? null,
    where,
    state,
    events,
    expiresAt,
  };
}

function requestOf(path: string): RequestRecord['request'] {
  if (path.endsWith('/intents/quote')) return 'quote';
  if (/\/intents\/[^/]+\/prepare$/.test(path)) return 'prepare';
  if (/\/attempts\/[^/]+\/submitted$/.test(path)) return 'submitted';
  return 'other';
}

/** `resource` as stored: the decider's guard checks a plain object only, so a completion may lack it. */
function completedWith(
  resource: IdempotencyResource | null | undefined,
  wanted: IdempotencyResource[],
): boolean {
  return resource != null && wanted.some((w) => w.kind === resource.kind && w.id === resource.id);
}

/** The gateway's digest of a key (IdempotencyLedger.keyDigest): sha256 of its UTF-8 bytes, hex. */
function digestOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

import {
  type AttemptRecord,
  type IntentQuotedData,
  intentSessionDecider,
  intentSessionStreamId,
  webhookStreamId,
} from '@svc/domain';
import { comparePositions, type EventStore, type RecordedEvent } from '@svc/event-store';
import { readRequestRecords, type RequestRecord } from '../requests/read-request-records';
import { readAttempt, type RefusedAttempt } from './read-attempt';
import { type ClaimRead, readClaims } from './read-claims';
import { checkStoredEvents, foldStream, type StoredEventsCheck } from './stored-events';

/** Everything the store holds about one attempt: its stream and every stream it touches. */
export interface AttemptHistory {
  attemptId: string;
  record: AttemptRecord;
  /** `attempt-<id>` as read: what the snapshot is folded from. */
  attemptEvents: RecordedEvent[];
  quote: IntentQuotedData | null;
  claims: ClaimRead[];
  requests: RequestRecord[];
  /** Every event read, of every stream, in the store's global order. */
  events: RecordedEvent[];
  /** The events read that this build cannot read: malformed ones (findings) and types it does not know (skipped). */
  storedEvents: StoredEventsCheck;
}

/**
 * Reads the attempt, its intent session, its webhook deliveries, its claims and its request records; a refused
 * attempt when its own stream holds an event the attempt decider does not fold (nothing else can be read of it).
 */
export async function readAttemptHistory(
  source: { store: EventStore; requestsFile: string | null },
  attemptId: string,
): Promise<AttemptHistory | (RefusedAttempt & { attemptId: string }) | null> {
  const { store } = source;
  const attempt = await readAttempt(store, attemptId);
  if (attempt === null) return null;
  if (attempt.refused !== null) return { ...attempt, attemptId };
  const { prepared } = attempt.record;
  const [intent, webhooks, claims] = await Promise.all([
    store.readStream(intentSessionStreamId(prepared.intentSessionId)),
    store.readStream(webhookStreamId(attemptId)),
    readClaims(store, attempt.record),
  ]);
  const session = foldStream(intentSessionDecider, intent).state;
  const quote = session === null || session.status === 'none' ? null : session.quote;
  const requests = await readRequestRecords(source, {
    partnerId: prepared.partnerId,
    keys: [quote?.idempotencyKey, prepared.idempotencyKey].filter((k): k is string => typeof k === 'string'),
    resources: [
      { kind: 'intent_session', id: prepared.intentSessionId },
      { kind: 'attempt', id: attemptId },
    ],
  });
  const events = [
    ...attempt.events,
    ...intent,
    ...webhooks,
    ...claims.flatMap((c) => c.events),
    ...requests.records.flatMap((r) => r.events),
  ].sort((a, b) => comparePositions(a.position, b.position));
  return {
    attemptId,
    record: attempt.record,
    attemptEvents: attempt.events,
    quote,
    claims,
    requests: requests.records,
    events,
    // Every event read, classified with its stream's decider guards; and the request streams' events the search
    // for the attempt's records could not read.
    storedEvents: checkStoredEvents(events, requests.malformed),
  };
}

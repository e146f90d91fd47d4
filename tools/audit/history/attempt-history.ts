import {
  type AttemptRecord,
  type IntentQuotedData,
  intentSessionStreamId,
  webhookStreamId,
} from '@svc/domain';
import { comparePositions, type EventStore, type RecordedEvent } from '@svc/event-store';
import { readRequestRecords, type RequestRecord } from '../requests/read-request-records';
import { readAttempt } from './read-attempt';
import { type ClaimRead, readClaims } from './read-claims';

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
}

/** Reads the attempt, its intent session, its webhook deliveries, its claims and its request records. */
export async function readAttemptHistory(
  source: { store: EventStore; requestsFile: string | null },
  attemptId: string,
): Promise<AttemptHistory | null> {
  const { store } = source;
  const attempt = await readAttempt(store, attemptId);
  if (attempt === null) return null;
  const { prepared } = attempt.record;
  const [intent, webhooks, claims] = await Promise.all([
    store.readStream(intentSessionStreamId(prepared.intentSessionId)),
    store.readStream(webhookStreamId(attemptId)),
    readClaims(store, attempt.record),
  ]);
  const quoted = intent.find((e) => e.type === 'IntentQuoted');
  const quote = quoted === undefined ? null : (quoted.data as unknown as IntentQuotedData);
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
    ...requests.flatMap((r) => r.events),
  ].sort((a, b) => comparePositions(a.position, b.position));
  return {
    attemptId,
    record: attempt.record,
    attemptEvents: attempt.events,
    quote,
    claims,
    requests,
    events,
  };
}

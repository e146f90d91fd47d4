import { ATTEMPT_STREAM_PREFIX, type AttemptEvent, attemptIdOfStream } from '@svc/domain';
import { isRecord, perReadModelDb, projection, type StreamEvent } from '@svc/event-store';
import { AttemptLookupIndex, LOOKUP_TABLES_VERSION } from './attempt-lookup-index';

/** The attempt events the lookups read (what evolveLookupEntry folds). */
const LOOKUP_EVENT_TYPES = [
  'AttemptPrepared',
  'EvidenceReported',
  'AuthorizationSigned',
  'SourceTransactionConfirmed',
  'SourceTransactionReverted',
  'SourceTransactionMismatched',
  'SourceTransactionUnknown',
  'LegPending',
  'LegDelayed',
  'LegFillRejected',
  'LegSettled',
  'LegFailed',
  'AttemptWalletSubmitted',
  'AttemptProviderPending',
  'AttemptSettled',
  'AttemptFailed',
  'AttemptExpired',
] as const satisfies readonly AttemptEvent['type'][];

type LookupEvent = Extract<AttemptEvent, { type: (typeof LOOKUP_EVENT_TYPES)[number] }>;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optionalString = (v: unknown) => v === undefined || v === null || isString(v);
const every = (v: unknown, item: (x: Record<string, unknown>) => boolean) =>
  Array.isArray(v) && v.every((x) => isRecord(x) && item(x));

/**
 * Whether a stored attempt event has every field evolveLookupEntry reads, of the right kind: the lookups' guard. An
 * event that fails it is quarantined by the runner, never folded into a half-read entry.
 */
export function isLookupEvent(event: StreamEvent): event is LookupEvent {
  const d = event.data;
  if (!isRecord(d)) return false;
  switch (event.type as LookupEvent['type']) {
    case 'AttemptPrepared':
      return (
        [d['attemptId'], d['intentSessionId'], d['partnerId'], d['wallet'], d['recipient']].every(isString) &&
        isNumber(d['preparedAt']) &&
        every(
          d['legs'],
          (leg) =>
            isRecord(leg['target']) &&
            isNumber(leg['target']['chainId']) &&
            every(leg['slices'], (s) => isString(s['sliceId']) && isNumber(s['sourceChainId'])),
        )
      );
    case 'EvidenceReported':
      return (
        isNumber(d['reportedAt']) &&
        every(
          d['chainResults'],
          (r) => isNumber(r['chainId']) && Array.isArray(r['txHashes']) && r['txHashes'].every(isString),
        )
      );
    case 'SourceTransactionConfirmed':
    case 'SourceTransactionReverted':
    case 'SourceTransactionMismatched':
    case 'SourceTransactionUnknown':
      return isNumber(d['chainId']) && isString(d['txHash']) && isNumber(d['at']);
    case 'LegSettled':
      return isString(d['sliceId']) && isNumber(d['at']) && optionalString(d['destinationTxHash']);
    case 'LegFailed':
      return (
        isString(d['sliceId']) &&
        isNumber(d['at']) &&
        optionalString(d['destinationTxHash']) &&
        optionalString(d['refundTxHash']) &&
        (d['refund'] === undefined ||
          d['refund'] === null ||
          (isRecord(d['refund']) && optionalString(d['refund']['txHash'])))
      );
    case 'AuthorizationSigned':
      return isNumber(d['signedAt']);
    case 'LegPending':
    case 'LegDelayed':
    case 'LegFillRejected':
    case 'AttemptWalletSubmitted':
    case 'AttemptProviderPending':
    case 'AttemptSettled':
    case 'AttemptFailed':
    case 'AttemptExpired':
      return isNumber(d['at']);
  }
}

/**
 * The lookups as a projection: every attempt stream, folded per attempt into the lookup tables
 * (AttemptLookupIndex) of the read-model database, by the one ProjectionRunner.
 */
export const attemptLookupProjection = projection<LookupEvent>({
  name: 'attempt-lookups',
  version: LOOKUP_TABLES_VERSION,
  streamPrefixes: [ATTEMPT_STREAM_PREFIX],
  eventTypes: LOOKUP_EVENT_TYPES,
  isEvent: isLookupEvent,
  init: (db) => AttemptLookupIndex.init(db),
  truncate: (db) => AttemptLookupIndex.truncate(db),
  evolve: (db, event, page) => lookupIndexOf(db).evolve(attemptIdOfStream(event.streamId), event, page),
  flush: (db, page) => lookupIndexOf(db).flush(page),
});

/** The lookups' index of a read-model database (one per database: its prepared statements). */
export const lookupIndexOf = perReadModelDb((db) => new AttemptLookupIndex(db));

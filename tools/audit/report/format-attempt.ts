import { type RecordedEvent } from '@svc/event-store';
import { type TxCheck } from '../chain/chain-check';
import { formatMalformed, type StoredEventsCheck } from '../history/stored-events';
import { type RequestRecord } from '../requests/read-request-records';
import { type Difference } from '../snapshot/json-differences';
import { formatSkipped, resultLine } from '../verify/format-verify';
import { type AttemptAudit, findingsOf, type RefusedAttemptAudit, unreachableOf } from './audit-attempt';
import { eventFacts } from './event-facts';
import { formatSnapshot } from './format-snapshot';
import { str, time } from './render';

/** The attempt's audit as a terminal reads it: history in store order, then the snapshot and every check. */
export function formatAttempt(audit: AttemptAudit, where: string): string {
  const { history, status, live, chain } = audit;
  const { prepared } = history.record;
  const streams = countByStream(history.events);
  const lines = [
    `attempt ${history.attemptId} of partner ${prepared.partnerId}, intent session ${prepared.intentSessionId}`,
    `store: ${where}`,
    `streams read: ${[...streams].map(([id, n]) => `${id} (${n})`).join(', ')}`,
    '',
    `history (${history.events.length} events, store order)`,
    ...history.events.map(formatEvent),
    '',
    ...formatStoredEvents(history.storedEvents),
    '',
    'request records (Idempotency-Key)',
    ...(history.requests.length === 0
      ? ['  none found (kept for IDEMPOTENCY_RETENTION_HOURS, 24 h by default)']
      : history.requests.map(formatRequest)),
    '',
    `snapshot (folded from the ${history.attemptEvents.length} events of attempt-${history.attemptId})`,
    ...formatSnapshot(status.snapshot),
    '',
    status.differences.length === 0
      ? 'status check: equal: AttemptStatusService.status on this store (the GET /attempts/{id}/status code path) returns this snapshot'
      : `status check: ${status.differences.length} difference(s) between the fold and AttemptStatusService.status on this store`,
    ...formatDifferences(status.differences, 'folded', 'status'),
    live === null
      ? 'live check: not asked (--api <url>)'
      : live.differences.length === 0
        ? `live check: equal: ${live.url} answered HTTP ${live.httpStatus} with this snapshot`
        : `live check: ${live.differences.length} difference(s) from ${live.url} (HTTP ${live.httpStatus}; a running service may have moved on since the store was read)`,
    ...(live === null ? [] : formatDifferences(live.differences, 'folded', 'live')),
    ...(chain === null
      ? ['chain check: not asked (--verify-chain, with CHAINS_FILE)']
      : [
          `chain check: ${chain.checks.length} transaction(s) read again, ${chain.mismatches.length} mismatch(es)`,
          ...chain.checks.flatMap(formatTxCheck),
        ]),
    '',
    resultLine(findingsOf(audit), unreachableOf(audit)),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * An attempt the service refuses: its stream holds an event the attempt decider does not fold. Its events as read,
 * and that event; nothing else can be read of the attempt (the snapshot is not folded, no check runs).
 */
export function formatRefusedAttempt(audit: RefusedAttemptAudit, where: string): string {
  const lines = [
    `attempt ${audit.attemptId}: its stream holds an event the attempt decider does not fold; the service refuses it`,
    `store: ${where}`,
    '',
    `history of attempt-${audit.attemptId} (${audit.events.length} events, store order)`,
    ...audit.events.map(formatEvent),
    '',
    `MALFORMED  ${formatMalformed(audit.refused)}`,
    '',
    resultLine(1, 0),
  ];
  return `${lines.join('\n')}\n`;
}

function formatEvent(e: RecordedEvent): string {
  return `  ${e.recordedAt}  ${kindOf(e.streamId).padEnd(11)} ${e.type.padEnd(27)} ${eventFacts(e)}`;
}

function formatStoredEvents(check: StoredEventsCheck): string[] {
  const skipped = `event types this build does not know, skipped: ${formatSkipped(check.skipped)}`;
  if (check.malformed.length === 0) return [`stored events: none malformed; ${skipped}`];
  return [
    `stored events: ${check.malformed.length} malformed (the service refuses their streams); ${skipped}`,
    ...check.malformed.map((m) => `  MALFORMED  ${formatMalformed(m)}`),
  ];
}

function formatRequest(r: RequestRecord): string {
  const state =
    r.state.status === 'completed'
      ? `completed HTTP ${r.state.httpStatus} with ${r.state.resource.kind} ${r.state.resource.id}`
      : r.state.status;
  const key = r.key === null ? 'key not recorded' : `key ${r.key}`;
  const until = r.expiresAt === null ? '' : `, kept until ${time(r.expiresAt)}`;
  return `  ${r.request.padEnd(10)} ${key} (sha256 ${r.keyDigest}): ${state}; ${r.where}${until}`;
}

function formatDifferences(differences: Difference[], left: string, right: string): string[] {
  return differences.map((d) => `  ${d.path}: ${left} ${str(d.expected)}, ${right} ${str(d.actual)}`);
}

function formatTxCheck(c: TxCheck): string[] {
  const head = `  ${c.outcome.toUpperCase().padEnd(10)} ${c.role.padEnd(8)} chain ${String(c.chainId).padEnd(6)} ${c.txHash}${c.sliceId ? ` (${c.sliceId})` : ''}`;
  if (c.mismatches.length === 0) return [`${head}: ${c.note}`];
  return [head, ...c.mismatches.map((m) => `    ${m.fact}: recorded ${m.recorded}, on chain ${m.onChain}`)];
}

function countByStream(events: readonly RecordedEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.streamId, (counts.get(e.streamId) ?? 0) + 1);
  return counts;
}

/** `attempt-…` → attempt: the stream's kind, its id being in the facts or the header. */
function kindOf(streamId: string): string {
  return streamId.slice(0, streamId.indexOf('-'));
}

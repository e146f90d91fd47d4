import { type RecordedEvent } from '@svc/event-store';
import { type AttemptAudit, findingsOf, type RefusedAttemptAudit, unreachableOf } from './audit-attempt';
import { eventFacts } from './event-facts';

/** The attempt's audit as one JSON document (`--json`): every event with its data, every check in full. */
export function attemptJson(audit: AttemptAudit, where: string): unknown {
  const { history, status, live, chain } = audit;
  const { prepared } = history.record;
  return {
    attemptId: history.attemptId,
    partnerId: prepared.partnerId,
    intentSessionId: prepared.intentSessionId,
    store: where,
    events: history.events.map(eventJson),
    storedEvents: history.storedEvents,
    requests: history.requests.map(({ events, ...record }) => ({ ...record, events: events.length })),
    claims: history.claims.map(({ events, ...claim }) => ({ ...claim, events: events.length })),
    snapshot: status.snapshot,
    statusCheck: {
      codePath: 'AttemptStatusService.status (GET /attempts/{id}/status)',
      equal: status.differences.length === 0,
      differences: status.differences,
    },
    liveCheck:
      live === null
        ? null
        : {
            url: live.url,
            httpStatus: live.httpStatus,
            equal: live.differences.length === 0,
            differences: live.differences,
          },
    chainCheck: chain,
    findings: findingsOf(audit),
    unreachable: unreachableOf(audit),
  };
}

/** A refused attempt (its stream holds an event the service refuses) as one JSON document. */
export function refusedAttemptJson(audit: RefusedAttemptAudit, where: string): unknown {
  return {
    attemptId: audit.attemptId,
    store: where,
    refused: true,
    events: audit.events.map(eventJson),
    storedEvents: { malformed: [audit.refused], skipped: {} },
    findings: 1,
    unreachable: 0,
  };
}

function eventJson(e: RecordedEvent) {
  return {
    time: e.recordedAt,
    stream: e.streamId,
    revision: e.revision,
    position: e.position,
    type: e.type,
    facts: eventFacts(e),
    data: e.data,
  };
}

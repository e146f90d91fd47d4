import {
  type IdempotencyEvent,
  type IntentQuotedData,
  type IntentSessionEvent,
  type TransactionClaimEvent,
  type WebhookStreamEvent,
} from '@svc/domain';
import { type RecordedEvent } from '@svc/event-store';
import { type AuditedEvent, readStoredEvent } from '../history/stored-events';
import { attemptEventFacts } from './attempt-event-facts';
import { str, time } from './render';

/**
 * The facts an event carries, on one line: the fields that matter to an auditor, full hashes and raw amounts (as
 * stored, base 10). Each event is read through its stream's decider guards first: one of a type this build does not
 * know, or of a stream the audit has no decider for, shows its data as JSON; a malformed one says so, with its data.
 * The guards check what the folds read; a facts line reads a little more, so a line it cannot read shows the data.
 */
export function eventFacts(event: RecordedEvent): string {
  const read = readStoredEvent(event);
  switch (read.kind) {
    case 'event':
      try {
        return auditedFacts(read.audited, event.streamId);
      } catch (error) {
        return `facts unreadable (${error instanceof Error ? error.message : String(error)}): ${JSON.stringify(event.data)}`;
      }
    case 'skipped':
      return `a type this build does not know (skipped): ${JSON.stringify(event.data)}`;
    case 'quarantined':
      return `MALFORMED (${read.quarantined.reason}): ${JSON.stringify(event.data)}`;
    case 'other':
      return JSON.stringify(event.data);
  }
}

function auditedFacts(audited: AuditedEvent, streamId: string): string {
  switch (audited.stream) {
    case 'attempt':
      return attemptEventFacts(audited.event);
    case 'intent':
      return intentFacts(audited.event);
    case 'webhook':
      return webhookFacts(audited.event);
    case 'txclaim':
      return claimFacts(audited.event, streamId);
    case 'idempotency':
      return requestFacts(audited.event);
  }
}

function intentFacts(event: IntentSessionEvent): string {
  switch (event.type) {
    case 'IntentQuoted':
      return intentQuoted(event.data);
    case 'IntentPrepared':
      return `attempt ${str(event.data.attemptId)}, key ${str(event.data.idempotencyKey)}`;
  }
}

/** A claim of the transaction, or of one deposit's delivery in it (its stream `…-dep-<depositKey>`, issue 24 item 1). */
function claimFacts({ data: d }: TransactionClaimEvent, streamId: string): string {
  const at = streamId.indexOf('-dep-');
  const deposit = at < 0 ? '' : ` deposit ${streamId.slice(at + '-dep-'.length)}`;
  return `chain ${str(d.chainId)} tx ${str(d.txHash)}${deposit} claimed by ${str(d.owner)}`;
}

function webhookFacts(event: WebhookStreamEvent): string {
  switch (event.type) {
    case 'WebhookQueued': {
      const d = event.data;
      return `${str(d.event)} (event ${str(d.eventId)}, attempt revision ${str(d.lifecycleRevision)}) queued`;
    }
    case 'WebhookAttempted': {
      const d = event.data;
      return `${str(d.eventId)} try ${str(d.attempt)}: ${d.httpStatus === null ? 'no response' : `HTTP ${str(d.httpStatus)}`} (${str(d.error)}), next try ${time(d.nextAttemptAt)}`;
    }
    case 'WebhookDelivered':
      return `${str(event.data.eventId)} try ${str(event.data.attempt)}: HTTP ${str(event.data.httpStatus)}, delivered`;
    case 'WebhookAbandoned':
      return `${str(event.data.eventId)} try ${str(event.data.attempt)}: abandoned (${str(event.data.reason)})`;
    case 'WebhookRedeliveryRequested':
      return `${str(event.data.eventId)} redelivery requested by ${str(event.data.requestedBy)}`;
    case 'WebhookRetryRequested':
      return `${str(event.data.eventId)} retry now requested by ${str(event.data.requestedBy)}`;
    case 'WebhookHistoryCompacted': {
      const events = event.data.events.map(
        (e) =>
          `${str(e.eventId)} ${str(e.status)} after ${str(e.deliveries)} tries (last ${time(e.lastTryAt)})`,
      );
      return `history compacted (older events of this stream truncated): ${events.join('; ')}`;
    }
  }
}

function requestFacts(event: IdempotencyEvent): string {
  switch (event.type) {
    case 'RequestAccepted': {
      const d = event.data;
      return `${str(d.method)} ${str(d.path)} accepted (body sha256 ${str(d.bodySha256)}), lease until ${time(d.leaseExpiresAt)}`;
    }
    case 'RequestCompleted': {
      const { resource, httpStatus } = event.data;
      return `completed with ${resource.kind} ${resource.id}, HTTP ${str(httpStatus)}`;
    }
    case 'RequestReleased':
      return `released: HTTP ${str(event.data.httpStatus)} ${str(event.data.code)}`;
  }
}

function intentQuoted(d: IntentQuotedData): string {
  const { response, fees } = d;
  const routes = (response.selectedPlan?.legs ?? [])
    .map((l) => `${l.outputTargetId} via ${l.provider}`)
    .join(', ');
  const owed = fees.markupOwed.map(
    (m) =>
      `${m.sliceId} ${m.rawAmount} of ${m.token} on ${m.chainId} (collected ${m.collectedBps ?? '?'} bps)`,
  );
  return [
    `quote ${response.quoteStatus}, expires ${time(d.expiresAt)}`,
    routes === '' ? 'no route' : routes,
    `fees: service ${fees.serviceFeeBps} bps + markup ${fees.markupBps} bps`,
    owed.length === 0 ? 'no markup owed' : `markup owed ${owed.join('; ')}`,
    `key ${str(d.idempotencyKey)}`,
  ].join('; ');
}

import { type RecordedEvent } from '@svc/event-store';
import { attemptEventFacts } from './attempt-event-facts';
import { str, time } from './render';

type Data = Record<string, unknown>;

/**
 * The facts an event carries, on one line: the fields that matter to an auditor, full hashes and raw amounts (as
 * stored, base 10). An event type this file does not know shows its data as JSON.
 */
export function eventFacts(event: RecordedEvent): string {
  const d = event.data;
  return attemptEventFacts(event.type, d) ?? otherEventFacts(event.type, d) ?? JSON.stringify(d);
}

function otherEventFacts(type: string, d: Data): string | null {
  switch (type) {
    case 'IntentQuoted':
      return intentQuoted(d);
    case 'IntentPrepared':
      return `attempt ${str(d.attemptId)}, key ${str(d.idempotencyKey)}`;
    case 'TransactionClaimed':
      return `chain ${str(d.chainId)} tx ${str(d.txHash)} claimed by ${str(d.owner)}`;
    case 'WebhookQueued':
      return `${str(d.event)} (event ${str(d.eventId)}, attempt revision ${str(d.lifecycleRevision)}) queued`;
    case 'WebhookAttempted':
      return `${str(d.eventId)} try ${str(d.attempt)}: ${d.httpStatus === null ? 'no response' : `HTTP ${str(d.httpStatus)}`} (${str(d.error)}), next try ${time(d.nextAttemptAt)}`;
    case 'WebhookDelivered':
      return `${str(d.eventId)} try ${str(d.attempt)}: HTTP ${str(d.httpStatus)}, delivered`;
    case 'WebhookAbandoned':
      return `${str(d.eventId)} try ${str(d.attempt)}: abandoned (${str(d.reason)})`;
    case 'WebhookRedeliveryRequested':
      return `${str(d.eventId)} redelivery requested by ${str(d.requestedBy)}`;
    case 'RequestAccepted':
      return `${str(d.method)} ${str(d.path)} accepted (body sha256 ${str(d.bodySha256)}), lease until ${time(d.leaseExpiresAt)}`;
    case 'RequestCompleted': {
      const resource = d.resource as { kind: string; id: string };
      return `completed with ${resource.kind} ${resource.id}, HTTP ${str(d.httpStatus)}`;
    }
    case 'RequestReleased':
      return `released: HTTP ${str(d.httpStatus)} ${str(d.code)}`;
    default:
      return null;
  }
}

function intentQuoted(d: Data): string {
  const response = d.response as {
    quoteStatus: string;
    selectedPlan: { legs: { provider: string; outputTargetId: string }[] } | null;
  };
  const fees = d.fees as {
    serviceFeeBps: number;
    markupBps: number;
    markupOwed: {
      sliceId: string;
      rawAmount: string;
      chainId: number;
      token: string;
      collectedBps?: number;
    }[];
  };
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

import {
  type WebhookDeliveryEvent,
  type WebhookQueuedData,
  type WebhookStreamEvent,
} from './webhook-delivery.events';
import { type WebhookDeliveryState, type WebhookQueueEntry } from './webhook-delivery.state';
import { REDELIVERY_WINDOW } from './redelivery-rate-limit';
import { compactedState } from './compact-webhook-history';

export function evolveWebhookDelivery(
  state: WebhookDeliveryState,
  event: WebhookStreamEvent,
): WebhookDeliveryState {
  if (event.type === 'WebhookHistoryCompacted') return compactedState(event.data);
  if (state.status === 'empty') return event.type === 'WebhookQueued' ? opened(event.data) : state;
  const next = applied(state, event);
  // An event that changed nothing (a duplicate, one about an unknown id) leaves the state as it was.
  if (next === state) return state;
  return {
    ...next,
    lastActivityAt: Math.max(next.lastActivityAt, timeOf(event)),
    changedSinceCompaction: true,
  };
}

type ActiveState = Extract<WebhookDeliveryState, { status: 'active' }>;

function applied(state: ActiveState, event: WebhookDeliveryEvent): ActiveState {
  switch (event.type) {
    case 'WebhookQueued':
      return state.entries.some((entry) => entry.eventId === event.data.eventId)
        ? state
        : { ...state, entries: [...state.entries, queued(event.data)] };
    case 'WebhookAttempted': {
      const { eventId, attempt, at, httpStatus, error, nextAttemptAt } = event.data;
      return tried(state, eventId, at, {
        status: 'retrying',
        attempts: attempt,
        nextAttemptAt,
        lastError: error,
        lastStatus: httpStatus,
      });
    }
    case 'WebhookDelivered': {
      const { eventId, attempt, at, httpStatus } = event.data;
      return tried(state, eventId, at, {
        status: 'delivered',
        attempts: attempt,
        nextAttemptAt: null,
        lastError: null,
        lastStatus: httpStatus,
      });
    }
    case 'WebhookAbandoned': {
      const { eventId, attempt, at, reason, httpStatus } = event.data;
      return tried(state, eventId, at, {
        status: 'abandoned',
        attempts: attempt,
        nextAttemptAt: null,
        lastError: reason,
        lastStatus: httpStatus,
      });
    }
    case 'WebhookRedeliveryRequested':
      return requeued(requested(state, event.data.eventId, event.data.at), event.data.eventId);
    case 'WebhookRetryRequested':
      return update(requested(state, event.data.eventId, event.data.at), event.data.eventId, () => ({
        nextAttemptAt: event.data.at,
      }));
    default:
      // A type this build does not know (a newer build's, during a rolling deploy) says nothing it can read.
      return state;
  }
}

/** When the event happened, as it says itself. */
function timeOf(event: WebhookDeliveryEvent): number {
  return event.type === 'WebhookQueued' ? event.data.queuedAt : event.data.at;
}

function opened(data: WebhookQueuedData): WebhookDeliveryState {
  return {
    status: 'active',
    attemptId: data.attemptId,
    partnerId: data.partnerId,
    entries: [queued(data)],
    lastActivityAt: data.queuedAt,
    changedSinceCompaction: true,
  };
}

function queued(data: WebhookQueuedData): WebhookQueueEntry {
  return {
    eventId: data.eventId,
    event: data.event,
    lifecycleRevision: data.lifecycleRevision,
    occurredAt: data.occurredAt,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    lastStatus: null,
    deliveries: 0,
    firstTryAt: null,
    lastTryAt: null,
    requestedAt: [],
    compacted: false,
  };
}

/** The entry of `eventId` changed as `changes` says; the same state when no entry has that id. */
function update(
  state: ActiveState,
  eventId: string,
  changes: (entry: WebhookQueueEntry) => Partial<WebhookQueueEntry>,
): ActiveState {
  if (!state.entries.some((entry) => entry.eventId === eventId)) return state;
  return {
    ...state,
    entries: state.entries.map((entry) =>
      entry.eventId === eventId ? { ...entry, ...changes(entry) } : entry,
    ),
  };
}

/** A try of the entry ended (`at`): what it changed, and the entry's count of tries of every pass goes on. */
function tried(
  state: ActiveState,
  eventId: string,
  at: number,
  changes: Partial<WebhookQueueEntry>,
): ActiveState {
  return update(state, eventId, (entry) => ({
    ...changes,
    deliveries: entry.deliveries + 1,
    firstTryAt: entry.firstTryAt ?? at,
    lastTryAt: at,
  }));
}

/** A redelivery or a retry brought forward was asked for at `at`: the latest REDELIVERY_WINDOW.requests are kept. */
function requested(state: ActiveState, eventId: string, at: number): ActiveState {
  return update(state, eventId, (entry) => ({
    requestedAt: [...entry.requestedAt, at].slice(-REDELIVERY_WINDOW.requests),
  }));
}

/**
 * A redelivery is a new pass at the END of the queue, behind every event queued so far: events still pending are
 * not held back by the resend of one that already ended, and the queue keeps a single entry per eventId.
 */
function requeued(state: ActiveState, eventId: string): ActiveState {
  const entry = state.entries.find((e) => e.eventId === eventId);
  if (!entry) return state;
  const fresh: WebhookQueueEntry = {
    ...entry,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    lastStatus: null,
  };
  return { ...state, entries: [...state.entries.filter((e) => e !== entry), fresh] };
}

import { type WebhookEventKind } from '@svc/contract';
import {
  type AttemptState,
  type ChainNames,
  attemptDecider,
  attemptStreamId,
  webhookBody,
} from '@svc/domain';
import { aggregateStream, type EventStore, foldStoredEvents } from '@svc/event-store';

/**
 * Each attempt's stream folded up to the newest lifecycle event a body was made for, so the body of the next one
 * reads and folds only the events after it rather than the whole stream again (the first, AttemptPrepared, is the
 * largest). An attempt stream only grows, so a fold up to a revision never goes stale. Bounded: the least recently
 * used attempt goes first.
 */
export class AttemptFolds {
  private readonly folds = new Map<string, { state: AttemptState; revision: number }>();

  constructor(private readonly capacity = 2_000) {}

  /** The attempt as of `revision` (that event included). */
  async at(store: EventStore, attemptId: string, revision: number): Promise<AttemptState> {
    const streamId = attemptStreamId(attemptId);
    const held = this.folds.get(attemptId);
    if (held !== undefined && held.revision === revision) return held.state;
    if (held !== undefined && held.revision < revision) {
      const events = await store.readStream(streamId, {
        fromRevision: held.revision + 1,
        maxCount: revision - held.revision,
      });
      // Exactly the events after the fold, up to the revision: anything else is read and folded whole below.
      if (events.length === revision - held.revision && events.at(-1)?.revision === revision) {
        const state = foldStoredEvents(attemptDecider, held.state, events);
        this.keep(attemptId, state, revision);
        return state;
      }
    }
    const { state, revision: read } = await aggregateStream(store, streamId, attemptDecider, {
      maxCount: revision + 1,
    });
    if (read === revision) this.keep(attemptId, state, revision);
    return state;
  }

  private keep(attemptId: string, state: AttemptState, revision: number): void {
    this.folds.delete(attemptId);
    if (this.folds.size >= this.capacity) {
      const [oldest] = this.folds.keys();
      if (oldest !== undefined) this.folds.delete(oldest);
    }
    this.folds.set(attemptId, { state, revision });
  }
}

/**
 * The webhook body: the attempt snapshot as of the lifecycle event (the stream folded up to and including it, not a
 * later state) plus the event's metadata (`webhookBody`). Serialized once: these exact bytes are signed and sent.
 */
export async function webhookPayload(
  store: EventStore,
  entry: {
    attemptId: string;
    eventId: string;
    event: WebhookEventKind;
    lifecycleRevision: number;
    occurredAt: number;
  },
  names: ChainNames,
  folds?: AttemptFolds,
): Promise<string | null> {
  const state = folds
    ? await folds.at(store, entry.attemptId, entry.lifecycleRevision)
    : (
        await aggregateStream(store, attemptStreamId(entry.attemptId), attemptDecider, {
          maxCount: entry.lifecycleRevision + 1,
        })
      ).state;
  return webhookBody(state, entry, names);
}

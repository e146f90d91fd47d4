import { type AttemptEvent, type AttemptRecord, evolveAttempt, initialAttemptState } from '@svc/domain';
import { eventIdFrom, type EventStore, WrongExpectedVersionError } from '@svc/event-store';

export const attemptStreamId = (attemptId: string) => `attempt-${attemptId}`;

/** The attempt as its stream says (and the revision read), or null when it does not exist or is not this partner's. */
export async function loadAttempt(
  store: EventStore,
  attemptId: string,
  partnerId: string | null,
): Promise<{ record: AttemptRecord; revision: number } | null> {
  const events = await store.readStream(attemptStreamId(attemptId));
  const state = events.reduce((s, e) => evolveAttempt(s, e as unknown as AttemptEvent), initialAttemptState);
  if (state.status === 'none' || (partnerId !== null && state.prepared.partnerId !== partnerId)) return null;
  return { record: state, revision: events.at(-1)!.revision };
}

/**
 * Decides against the current stream and appends at the revision read; on a concurrent append it re-reads and
 * decides again (never appends blindly). Event ids derive from `stepId` and the revision read, so the same decision
 * retried at the same revision is a no-op, while the same kind of step later (at another revision) is new.
 */
export async function decideAndAppend(
  store: EventStore,
  attemptId: string,
  stepId: string,
  decide: (record: AttemptRecord) => AttemptEvent[],
): Promise<AttemptRecord | null> {
  return (await decideAndAppendAt(store, attemptId, stepId, decide))?.record ?? null;
}

/** decideAndAppend, also telling the stream revision the returned record was folded at. */
export async function decideAndAppendAt(
  store: EventStore,
  attemptId: string,
  stepId: string,
  decide: (record: AttemptRecord) => AttemptEvent[],
): Promise<{ record: AttemptRecord; revision: number } | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const loaded = await loadAttempt(store, attemptId, null);
    if (!loaded) return null;
    const events = decide(loaded.record);
    if (events.length === 0) return loaded;
    try {
      await store.append(
        attemptStreamId(attemptId),
        events.map((e, i) => ({
          id: eventIdFrom(attemptStreamId(attemptId), stepId, String(loaded.revision), String(i), e.type),
          type: e.type,
          data: { ...e.data },
        })),
        { expectedRevision: loaded.revision },
      );
      return await loadAttempt(store, attemptId, null);
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
    }
  }
  throw new Error(`attempt ${attemptId}: too many concurrent appends`);
}

import { type EventStore, type Position } from '@svc/event-store';
import { type CensusSnapshot } from './attempt-status-census';

/** The tracker's checkpoint: where in the global log its work list stands, and that list. */
export interface TrackerCheckpoint {
  position: Position | null;
  open: string[];
  census: CensusSnapshot;
}

export const TRACKER_CHECKPOINT_STREAM = 'checkpoint-settlement-tracker';

/** The latest checkpoint, if any. */
export async function readTrackerCheckpoint(store: EventStore): Promise<TrackerCheckpoint | null> {
  const [last] = await store.readStream(TRACKER_CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  return last === undefined ? null : (last.data as unknown as TrackerCheckpoint);
}

/**
 * Keeps only the newest checkpoint. Any instance may write it: each is a complete, consistent list at its position,
 * and an instance resuming from an older one only reads a little more of the log.
 */
export async function writeTrackerCheckpoint(
  store: EventStore,
  checkpoint: TrackerCheckpoint,
  id: string,
): Promise<void> {
  await store.append(
    TRACKER_CHECKPOINT_STREAM,
    [{ id, type: 'TrackerCheckpointed', data: { ...checkpoint } }],
    { expectedRevision: 'any', maxCount: 1 },
  );
}

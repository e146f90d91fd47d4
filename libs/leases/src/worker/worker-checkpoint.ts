import { type EventStore, type Position } from '@svc/event-store';

/** Where a worker's catch-up over the global log stands, and the state it built from the log up to there. */
export interface WorkerCheckpoint {
  position: Position | null;
  /** The worker's own, checked by the worker when it resumes (a checkpoint from another version may not fit). */
  state: unknown;
}

/** One stream per worker group (`checkpoint-settlement-tracker`, `checkpoint-webhook-dispatcher`). */
export const workerCheckpointStream = (group: string): string => `checkpoint-${group}`;

/** The newest checkpoint of the group, or null when there is none or it is not one (then the log is read again). */
export async function readWorkerCheckpoint(
  store: EventStore,
  group: string,
): Promise<WorkerCheckpoint | null> {
  const [last] = await store.readStream(workerCheckpointStream(group), {
    direction: 'backwards',
    maxCount: 1,
  });
  if (last === undefined) return null;
  const { position, state } = last.data;
  if (position !== null && typeof position !== 'string') return null;
  return { position, state };
}

/**
 * Keeps only the newest checkpoint. Any instance of the group may write it: each is a complete, consistent state at
 * its position, and an instance resuming from an older one only reads a little more of the log.
 */
export async function writeWorkerCheckpoint(
  store: EventStore,
  group: string,
  checkpoint: WorkerCheckpoint,
  id: string,
): Promise<void> {
  await store.append(
    workerCheckpointStream(group),
    [{ id, type: 'WorkerCheckpointed', data: { position: checkpoint.position, state: checkpoint.state } }],
    { expectedRevision: 'any', maxCount: 1 },
  );
}

import { randomUUID } from 'node:crypto';
import { type NewEvent } from '../../event-store.port';

/**
 * A name no other case uses. Contract cases may share one database (EventStoreDB runs one container per
 * file), so every case works on its own streams and subscription ids and filters reads by its own prefix.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

export function newEvent(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { id: randomUUID(), type, data };
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Long enough for a store that would deliver an unwanted event to have done so (polling stores poll at ~50 ms). */
export const QUIET_PERIOD_MS = 200;

/** The error a call rejected with; fails the case if it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, it resolved');
}

import { randomUUID } from 'node:crypto';
import { attemptStreamId } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { benchPrepared } from './webhook-seed';

/** The id of the i-th seeded attempt. */
export const seededAttemptId = (i: number) => `at_bench_${i}`;

/**
 * Stores attempts `from`…`to − 1` of a partner as most stored attempts are: prepared and over (AttemptPrepared then
 * AttemptExpired, one append each, no webhook), so the service's tracker closes them instead of tracking them. The
 * port has no batch across streams, so each is its own append (one transaction); returns the ms it took. Seed while
 * no service runs on the file: back-to-back write transactions from here starve a running service's own writers past
 * their busy timeout ("database is locked").
 */
export async function seedAttempts(
  store: EventStore,
  params: { partnerId: string; from: number; to: number },
): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  for (let i = params.from; i < params.to; i += 1) {
    const attemptId = seededAttemptId(i);
    await store.append(
      attemptStreamId(attemptId),
      [
        {
          id: randomUUID(),
          type: 'AttemptPrepared',
          data: { ...benchPrepared(attemptId, params.partnerId, now) },
        },
        { id: randomUUID(), type: 'AttemptExpired', data: { at: now } },
      ],
      { expectedRevision: 'no_stream' },
    );
  }
  return performance.now() - started;
}

import { createHash, randomUUID } from 'node:crypto';
import { idempotencyStreamId } from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import { readRequestRecords } from './read-request-records';

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
const session = { kind: 'intent_session', id: 'is_1' } as const;
const fp = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };

/** A key's stream as the gateway writes it: accepted, then completed with `resource`. */
async function completedKey(store: MemoryEventStore, partnerId: string, key: string): Promise<void> {
  await store.append(
    idempotencyStreamId(partnerId, digest(key)),
    [
      {
        id: randomUUID(),
        type: 'RequestAccepted',
        data: { ...fp, requestId: 'r1', acceptedAt: 1, leaseExpiresAt: 60_001 },
      },
      {
        id: randomUUID(),
        type: 'RequestCompleted',
        data: { resource: session, httpStatus: 200, completedAt: 2 },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
}

describe('the audit reading Idempotency-Key streams', () => {
  it("reads partner `a`'s keys only, not those of partner `a-b` (whose streams start the same)", async () => {
    const store = new MemoryEventStore();
    await completedKey(store, 'a', 'key-of-a');
    await completedKey(store, 'a-b', 'key-of-a-b');
    const found = await readRequestRecords(
      { store, requestsFile: null },
      { partnerId: 'a', keys: [], resources: [session] },
    );
    expect(found.records.map((r) => [r.keyDigest, r.where])).toEqual([
      [digest('key-of-a'), `stream ${idempotencyStreamId('a', digest('key-of-a'))}`],
    ]);
    expect(found.malformed).toEqual([]);
    await store.close();
  });
});

import { type RequestRecords } from '../../request-records.port';

/** What one racer does: bind `race-<i>` with its tuple, or begin key `race-<i>`, for i below `count`. */
export interface RaceOrder {
  what: 'nonces' | 'keys';
  racer: string;
  count: number;
}

const fp = { method: 'POST', path: '/api/external/intents/quote', bodySha256: 'aa' };

/**
 * Runs one racer's part on the records: whether each nonce was bound to its tuple (`true`), or each key's begin
 * outcome (`run`, `in_progress`, ...). The same order runs in the test process and in the child processes.
 */
export async function race(records: RequestRecords, { what, racer, count }: RaceOrder): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const now = Date.now();
    if (what === 'nonces') {
      results.push(
        await records.nonces.use('p', `race-${i}`, { type: 'UseNonce', data: { tupleHash: racer, now } }),
      );
    } else {
      const data = { fingerprint: fp, requestId: `${racer}-${i}`, now, leaseMs: 60_000 };
      results.push((await records.idempotency.begin('p', `race-${i}`, { type: 'BeginRequest', data })).kind);
    }
  }
  return results;
}

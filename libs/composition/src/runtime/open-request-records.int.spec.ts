import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore } from '@svc/event-store';
import { NonceRegistry } from '@svc/gateway';
import { type AppConfig } from '../config/app-config';
import { openRequestRecords } from './open-request-records';

const gateway: AppConfig['gateway'] = {
  maxBodyBytes: 1_000_000,
  idempotencyRetentionHours: 24,
  idempotencyLeaseSeconds: 120,
  busRequestTimeoutMs: 5_000,
};
const NONCE = 'nonce-aaaaaaaaaaaaaaaa';

describe('openRequestRecords', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'records-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const storeConfig = (kind: AppConfig['store']['kind']): AppConfig['store'] => ({
    kind,
    dataDir: dir,
    eventStoreDbUrl: kind === 'eventstoredb' ? 'esdb://localhost:2113?tls=false' : null,
    readModels: { dir, snapshotDir: null, snapshotEveryMs: 900_000 },
  });

  it('keeps them in tables of DATA_DIR/requests.sqlite with EVENT_STORE=sqlite, not in the event store', async () => {
    const store = new MemoryEventStore();
    const records = openRequestRecords({ store: storeConfig('sqlite'), gateway }, store);
    try {
      expect(await new NonceRegistry(records.nonces).bind('p', NONCE, 'tuple-1', Date.now())).toBe(true);
      expect(existsSync(join(dir, 'requests.sqlite'))).toBe(true);
      expect(await store.readAll()).toEqual([]);
    } finally {
      await records.close();
    }
  });

  it.each(['memory', 'eventstoredb'] as const)(
    'keeps them as streams in the event store with %s',
    async (kind) => {
      const store = new MemoryEventStore();
      const records = openRequestRecords({ store: storeConfig(kind), gateway }, store);
      const now = Date.now();
      expect(await new NonceRegistry(records.nonces).bind('p', NONCE, 'tuple-1', now)).toBe(true);
      expect(await store.readStream(NonceRegistry.streamId('p', NONCE, now))).toHaveLength(1);
      expect(existsSync(join(dir, 'requests.sqlite'))).toBe(false);
      await records.close();
    },
  );
});

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore, SqliteStoreUnavailableError } from '@svc/event-store';
import { openAuditStore } from './open-audit-store';
import { StoreWriteRefusedError } from './read-only-event-store';

const event = (id: string) => ({ id, type: 'Noted', data: { n: id } });

describe('the audit opens a store for reading only', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads what the service wrote; SQLite itself refuses an append on the read-only open, and the audit's guard first", async () => {
    const file = join(dir, 'events.sqlite');
    const writer = SqliteEventStore.open({ file });
    await writer.append('attempt-a', [event('00000000-0000-4000-8000-000000000001')], {
      expectedRevision: 'no_stream',
    });
    const reader = SqliteEventStore.openReadOnly({ file });
    const { store } = openAuditStore({ EVENT_STORE: 'sqlite', DATA_DIR: dir });
    try {
      expect((await store.readStream('attempt-a')).map((e) => e.data)).toEqual([
        { n: '00000000-0000-4000-8000-000000000001' },
      ]);
      await expect(
        reader.append('attempt-a', [event('00000000-0000-4000-8000-000000000002')], { expectedRevision: 0 }),
      ).rejects.toMatchObject({
        code: 'SQLITE_READONLY',
      });
      await expect(store.append('attempt-a', [], { expectedRevision: 0 })).rejects.toBeInstanceOf(
        StoreWriteRefusedError,
      );
      await expect(
        store.subscribe({ subscriptionId: 's', streamPrefixes: [], handler: () => Promise.resolve() }),
      ).rejects.toBeInstanceOf(StoreWriteRefusedError);
      // The writer's own connection still sees one event: nothing was appended.
      expect(await writer.readStream('attempt-a')).toHaveLength(1);
    } finally {
      await Promise.all([reader.close(), store.close(), writer.close()]);
    }
  });

  it('refuses a missing file without creating it, and a file that is not an event store', () => {
    expect(() => openAuditStore({ EVENT_STORE: 'sqlite', DATA_DIR: join(dir, 'nowhere') })).toThrow(
      SqliteStoreUnavailableError,
    );
    expect(readdirSync(dir)).toEqual([]);
    const other = new Database(join(dir, 'events.sqlite'));
    other.exec('CREATE TABLE t (a)');
    other.close();
    expect(() => openAuditStore({ EVENT_STORE: 'sqlite', DATA_DIR: dir })).toThrow('has no events table');
  });

  it('refuses a memory store: it lives inside the service process', () => {
    expect(() => openAuditStore({ EVENT_STORE: 'memory', DATA_DIR: dir })).toThrow('EVENT_STORE=memory');
    expect(existsSync(join(dir, 'events.sqlite'))).toBe(false);
  });
});

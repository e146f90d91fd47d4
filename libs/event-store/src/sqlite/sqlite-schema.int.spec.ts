import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from './sqlite-schema';

describe('openSqliteDatabase', () => {
  it('syncs every commit (synchronous=FULL), on the connection that creates the file and on every later one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-schema-'));
    const file = join(dir, 'events.sqlite');
    const first = openSqliteDatabase(file);
    const second = openSqliteDatabase(file); // the file is in WAL mode already: the driver's default would be NORMAL
    try {
      expect([first, second].map((db) => db.pragma('journal_mode', { simple: true }))).toEqual([
        'wal',
        'wal',
      ]);
      expect([first, second].map((db) => db.pragma('synchronous', { simple: true }))).toEqual([2, 2]);
    } finally {
      first.close();
      second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

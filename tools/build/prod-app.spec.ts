import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneStale } from './prod-app';

describe('pruneStale (the production installs kept per lock file)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'prod-install-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("removes other lock files' installs older than a day, keeps the current one and younger ones", () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const name of ['current', 'stale', 'stale.tmp-123', 'fresh']) {
      mkdirSync(join(dir, name, 'node_modules'), { recursive: true });
      if (name !== 'fresh') utimesSync(join(dir, name), twoDaysAgo, twoDaysAgo);
    }
    pruneStale(dir, 'current');
    expect(readdirSync(dir).sort()).toEqual(['current', 'fresh']);
    expect(existsSync(join(dir, 'current', 'node_modules'))).toBe(true);
  });
});

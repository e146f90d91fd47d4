import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileIdempotencyStore } from './file-idempotency-store';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idempotency-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
describeIdempotencyStoreContract(
  'FileIdempotencyStore',
  () => new FileIdempotencyStore(join(dir, `s${counter++}`, 'store.json')),
);

describe('FileIdempotencyStore', () => {
  it('is read back by a new instance, as after a restart', async () => {
    const path = join(dir, 'store.json');
    await new FileIdempotencyStore(path).put('quote:abc', { key: 'k', body: '{"x":1}' });
    expect(await new FileIdempotencyStore(path).get('quote:abc')).toEqual({ key: 'k', body: '{"x":1}' });
  });

  it('writes by rename, leaving no temporary files, readable only by the owner', async () => {
    const path = join(dir, 'store.json');
    const store = new FileIdempotencyStore(path);
    await store.put('a', { key: 'k', body: '{}' });
    await store.put('b', { key: 'k', body: '{}' });
    expect(readdirSync(dir)).toEqual(['store.json']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      version: 1,
      operations: { a: { key: 'k', body: '{}' }, b: { key: 'k', body: '{}' } },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a corrupt file instead of treating it as empty', async () => {
    const path = join(dir, 'store.json');
    writeFileSync(path, '{"operations": {"a": ');
    await expect(new FileIdempotencyStore(path).get('a')).rejects.toThrow(SyntaxError);
    await expect(new FileIdempotencyStore(path).put('b', { key: 'k', body: '{}' })).rejects.toThrow(
      SyntaxError,
    );
    expect(readFileSync(path, 'utf8')).toBe('{"operations": {"a": ');
  });

  it('keeps working after a failed write', async () => {
    const path = join(dir, 'store.json');
    writeFileSync(path, 'not json');
    const store = new FileIdempotencyStore(path);
    await expect(store.put('a', { key: 'k', body: '{}' })).rejects.toThrow();
    rmSync(path);
    await store.put('b', { key: 'k', body: '{}' });
    expect(await store.get('b')).toEqual({ key: 'k', body: '{}' });
  });

  it('keeps every record when several processes write the same file at once', async () => {
    const path = join(dir, 'store.json');
    const root = join(__dirname, '..', '..', '..', '..');
    const writers = 6;
    const count = 30;
    const runs = Array.from({ length: writers }, (_, w) => {
      const child = spawn(
        process.execPath,
        [
          join(root, 'tools', 'run-ts.js'),
          'libs/partner-client/src/idempotency/file-idempotency-store.writer.fixture.ts',
          path,
          `w${w}`,
          String(count),
        ],
        { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let errors = '';
      child.stderr.on('data', (c: Buffer) => (errors += c.toString()));
      return new Promise<string>((resolve) => child.once('exit', (code) => resolve(`${code} ${errors}`)));
    });
    expect(await Promise.all(runs)).toEqual(Array.from({ length: writers }, () => '0 '));
    const operations = (JSON.parse(readFileSync(path, 'utf8')) as { operations: Record<string, unknown> })
      .operations;
    const expected: Record<string, unknown> = {};
    for (let w = 0; w < writers; w++)
      for (let i = 0; i < count; i++)
        if (i % 3 !== 2) expected[`w${w}-${i}`] = { key: `key-w${w}-${i}`, body: `{"i":${i}}` };
    expect(operations).toEqual(expected);
    expect(readdirSync(dir)).toEqual(['store.json']);
  }, 60_000);

  it('takes over a lock left by a process that died, and waits for one that is alive', async () => {
    const path = join(dir, 'store.json');
    // A pid no process has (beyond the kernel's default pid_max).
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), token: 'dead' }));
    await new FileIdempotencyStore(path).put('a', { key: 'k', body: '{}' });
    expect(readdirSync(dir)).toEqual(['store.json']);

    // This process holds it: a change waits, then gives up naming the lock.
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 'alive' }));
    const store = new FileIdempotencyStore(path, { lockTimeoutMs: 300 });
    await expect(store.put('b', { key: 'k', body: '{}' })).rejects.toThrow(
      /stayed locked.*store\.json\.lock/,
    );
    expect(await store.get('b')).toBeUndefined();

    // Older than staleLockMs: taken over whatever it says.
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(`${path}.lock`, old, old);
    await store.put('b', { key: 'k', body: '{}' });
    expect(await store.get('b')).toEqual({ key: 'k', body: '{}' });
    expect(readdirSync(dir)).toEqual(['store.json']);
  });
});

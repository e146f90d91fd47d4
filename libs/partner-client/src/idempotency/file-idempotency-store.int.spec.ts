import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
});

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileProcessedEventStore } from './file-processed-event-store';
import { describeProcessedEventStoreContract } from './processed-event-store.contract';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'processed-events-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
describeProcessedEventStoreContract(
  'FileProcessedEventStore',
  () => new FileProcessedEventStore(join(dir, `s${counter++}`, 'processed-events.txt')),
);

describe('FileProcessedEventStore', () => {
  it('appends one id per line, once, to a file only the owner can read', async () => {
    const path = join(dir, 'nested', 'processed-events.txt');
    const store = new FileProcessedEventStore(path);
    await store.add('evt_1');
    await store.add('evt_2');
    await store.add('evt_1');
    expect(readFileSync(path, 'utf8')).toBe('evt_1\nevt_2\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('is read back by a new instance, as after a restart', async () => {
    const path = join(dir, 'processed-events.txt');
    await new FileProcessedEventStore(path).add('evt_1');
    const restarted = new FileProcessedEventStore(path);
    expect(await restarted.has('evt_1')).toBe(true);
    expect(await restarted.has('evt_2')).toBe(false);
  });

  it('does not count an id whose append was cut short, and starts the next append on a fresh line', async () => {
    const path = join(dir, 'processed-events.txt');
    writeFileSync(path, 'evt_1\nevt_2');
    const store = new FileProcessedEventStore(path);
    expect(await store.has('evt_1')).toBe(true);
    expect(await store.has('evt_2')).toBe(false);
    await store.add('evt_3');
    await store.add('evt_4');
    expect(readFileSync(path, 'utf8')).toBe('evt_1\nevt_2\nevt_3\nevt_4\n');
    expect(await new FileProcessedEventStore(path).has('evt_3')).toBe(true);
  });

  it.each(['', 'evt_1\nevt_2', 'evt_1\r'])(
    'refuses the id %p, which would break the line format',
    async (id) => {
      const path = join(dir, 'processed-events.txt');
      await expect(new FileProcessedEventStore(path).add(id)).rejects.toThrow(TypeError);
    },
  );

  it('reports a failed append and keeps working after it', async () => {
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, '');
    const store = new FileProcessedEventStore(join(blocker, 'processed-events.txt'));
    await expect(store.add('evt_1')).rejects.toThrow();
    rmSync(blocker);
    expect(await store.has('evt_1')).toBe(false);
    await store.add('evt_2');
    expect(await store.has('evt_2')).toBe(true);
  });
});

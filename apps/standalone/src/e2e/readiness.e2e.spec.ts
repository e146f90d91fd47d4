import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { EVENT_STORE, type EventStore, MemoryEventStore, type SqliteEventStore } from '@svc/event-store';
import { rawRequest, repoRoot } from '@svc/testing';
import { type RunningService, startService } from '../app/start-service';
import { startTestApp, TEST_FEE_RECIPIENT, UNREACHABLE_PROVIDERS_ENV } from './test-app';

interface Readiness {
  status: number;
  checks: Record<string, string>;
}

async function readyz(port: number): Promise<Readiness> {
  const res = await rawRequest({ port, method: 'GET', path: '/readyz' });
  return { status: res.status, checks: (res.json as { checks: Record<string, string> }).checks };
}

/** Asks /readyz every 50 ms until it answers `status`; what it answered and how long that took. */
async function readyzUntil(port: number, status: number, withinMs: number) {
  const started = Date.now();
  for (;;) {
    const answer = await readyz(port);
    const ms = Date.now() - started;
    if (answer.status === status || ms > withinMs) return { ...answer, ms };
    await delay(50);
  }
}

const portOf = (url: string) => Number(new URL(url).port);

/**
 * /readyz says whether this instance can serve, not only whether its stores answer a read (security review N-L7): a
 * replica whose read models have not caught up since it started, or whose writes fail, is taken out of the balancer
 * until that passes.
 */
describe('/readyz: read models caught up and writes that succeed (security review N-L7)', () => {
  it('answers 503 while the read models catch up after start, 200 once they have', async () => {
    // A log whose reads hang until released: the projections' first catch-up cannot end before.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const inner = new MemoryEventStore();
    const store = new Proxy(inner, {
      get(target, property) {
        if (property === 'readAllPage')
          return (...args: Parameters<EventStore['readAllPage']>) =>
            released.then(() => target.readAllPage(...args));
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const t = await startTestApp({ store });
    try {
      const catchingUp = await readyz(t.opsPort);
      expect(catchingUp).toEqual({
        status: 503,
        checks: { eventStore: 'ok', eventStoreWrites: 'ok', readModels: 'catching_up' },
      });
      release();
      const ready = await readyzUntil(t.opsPort, 200, 5000);
      expect(ready).toMatchObject({
        status: 200,
        checks: { eventStore: 'ok', eventStoreWrites: 'ok', readModels: 'ok' },
      });
    } finally {
      release();
      await t.close();
    }
  });

  describe('on a SQLite store that is full', () => {
    let dir: string;
    let service: RunningService;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'readiness-'));
      service = await startService({
        ...UNREACHABLE_PROVIDERS_ENV,
        HOST: '127.0.0.1',
        PORT: '0',
        OPS_PORT: '0',
        LOG_LEVEL: 'silent',
        EVENT_STORE: 'sqlite',
        DATA_DIR: dir,
        PARTNERS_FILE: join(repoRoot, 'config', 'partners.dev.json'),
        SERVICE_FEE_RECIPIENT: TEST_FEE_RECIPIENT,
      });
    });
    afterAll(async () => {
      await service?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers 503 within 2 s once no page can be added (PRAGMA max_page_count), and 200 again once freed', async () => {
      const ops = portOf(service.opsUrl);
      expect((await readyzUntil(ops, 200, 10_000)).status).toBe(200);
      // The service's own connection to events.sqlite: no page beyond the ones the file has (a full disk, as SQLite
      // sees it). Appends fail with SQLITE_FULL from here on.
      const store = service.app.get<symbol, SqliteEventStore>(EVENT_STORE);
      const pages = store.pragma('page_count', { simple: true }) as number;
      store.pragma(`max_page_count = ${pages}`);
      const full = await readyzUntil(ops, 503, 2000);
      expect(full).toMatchObject({ status: 503, checks: { eventStore: 'ok', eventStoreWrites: 'failing' } });
      expect(full.ms).toBeLessThanOrEqual(2000);
      // Still not ready a while later: nothing but space fixes it.
      await delay(1500);
      expect((await readyz(ops)).status).toBe(503);

      store.pragma('max_page_count = 1073741823');
      const freed = await readyzUntil(ops, 200, 15_000);
      expect(freed).toMatchObject({ status: 200, checks: { eventStoreWrites: 'ok' } });
    }, 40_000);
  });
});

import { checkReadiness, ReadinessProbe } from './readiness';

describe('checkReadiness', () => {
  it('is ready when every check resolves', async () => {
    const report = await checkReadiness(
      [
        { name: 'eventStore', check: () => Promise.resolve() },
        { name: 'bus', check: () => Promise.resolve() },
      ],
      100,
    );
    expect(report).toEqual({ ready: true, checks: { eventStore: 'ok', bus: 'ok' } });
  });

  it('names a failing and a hung dependency unreachable, and answers within the timeout', async () => {
    const started = Date.now();
    const report = await checkReadiness(
      [
        { name: 'eventStore', check: () => Promise.resolve() },
        { name: 'bus', check: () => Promise.reject(new Error('ECONNREFUSED')) },
        { name: 'hung', check: () => new Promise<void>(() => undefined) },
      ],
      150,
    );
    expect(report).toEqual({
      ready: false,
      checks: { eventStore: 'ok', bus: 'unreachable', hung: 'unreachable' },
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a failed check as it declares: writes failing, read models catching up (N-L7)', async () => {
    const report = await checkReadiness(
      [
        { name: 'eventStore', check: () => Promise.resolve() },
        {
          name: 'eventStoreWrites',
          check: () => Promise.reject(new Error('SQLITE_FULL')),
          failure: 'failing',
        },
        {
          name: 'readModels',
          check: () => Promise.reject(new Error('attempt-lookups')),
          failure: 'catching_up',
        },
      ],
      100,
    );
    expect(report).toEqual({
      ready: false,
      checks: { eventStore: 'ok', eventStoreWrites: 'failing', readModels: 'catching_up' },
    });
  });

  it('treats a check that throws synchronously as unreachable', async () => {
    const report = await checkReadiness(
      [
        {
          name: 'bus',
          check: () => {
            throw new Error('not joined');
          },
        },
      ],
      100,
    );
    expect(report).toEqual({ ready: false, checks: { bus: 'unreachable' } });
  });
});

describe('ReadinessProbe', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  /** A check that counts its runs and answers when released. */
  function countingCheck() {
    const check = {
      runs: 0,
      release: () => undefined as void,
      name: 'eventStore',
      check: () => {
        check.runs++;
        return new Promise<void>((resolve) => (check.release = resolve));
      },
    };
    return check;
  }

  it('runs the checks once for 100 probes in flight at once, and reuses the report for cacheMs', async () => {
    let now = 0;
    const store = countingCheck();
    const probe = new ReadinessProbe([store], { timeoutMs: 1000, cacheMs: 1000, now: () => now });
    const reports = Array.from({ length: 100 }, () => probe.report());
    await tick();
    store.release();
    expect(new Set(await Promise.all(reports)).size).toBe(1);
    expect(store.runs).toBe(1);
    now = 999;
    expect(await probe.report()).toEqual({ ready: true, checks: { eventStore: 'ok' } });
    expect(store.runs).toBe(1);
    now = 1000;
    const next = probe.report();
    await tick();
    store.release();
    await next;
    expect(store.runs).toBe(2);
  });

  it('counts the cache from when a slow run ends, so a hung store is asked at most once per timeout + cacheMs', async () => {
    let now = 0;
    const store = countingCheck();
    const probe = new ReadinessProbe([store], { timeoutMs: 50, cacheMs: 1000, now: () => now });
    const first = probe.report();
    now = 5000; // the run is still in flight: everyone shares it
    const second = probe.report();
    expect(await first).toEqual({ ready: false, checks: { eventStore: 'unreachable' } });
    expect(await second).toBe(await first);
    now = 5999;
    await probe.report();
    expect(store.runs).toBe(1);
  });

  it('once draining, answers not ready at once, even with a fresh cached report, and asks no dependency', async () => {
    const store = countingCheck();
    const probe = new ReadinessProbe([store], { timeoutMs: 1000, cacheMs: 1000, now: () => 0 });
    const first = probe.report();
    await tick();
    store.release();
    expect(await first).toEqual({ ready: true, checks: { eventStore: 'ok' } });
    probe.drain();
    expect(await probe.report()).toEqual({ ready: false, checks: { shutdown: 'draining' } });
    expect(store.runs).toBe(1);
  });
});

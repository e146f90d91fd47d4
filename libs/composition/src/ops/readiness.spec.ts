import { checkReadiness } from './readiness';

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

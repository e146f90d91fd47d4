import { FairLimiter, LimiterAbortedError } from './fair-limiter';

/** A call that ends when the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('FairLimiter', () => {
  it('runs at most `limit` calls at once', async () => {
    const limiter = new FairLimiter(2);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run('r', async () => {
        started.push(i);
        await g.opened;
      }),
    );
    await settle();
    expect([started, limiter.load]).toEqual([[0, 1], { running: 2, waiting: 1 }]);
    gates[0].open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[1].open();
    gates[2].open();
    await Promise.all(runs);
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('serves the waiting requests in turn: a one-call request does not wait behind a large one', async () => {
    const limiter = new FairLimiter(1);
    const order: string[] = [];
    const first = gate();
    const runs = [limiter.run('large', () => first.opened.then(() => void order.push('large-0')))];
    for (let i = 1; i <= 5; i++)
      runs.push(limiter.run('large', () => Promise.resolve(void order.push(`large-${i}`))));
    runs.push(limiter.run('small', () => Promise.resolve(void order.push('small-0'))));
    await settle();
    first.open();
    await Promise.all(runs);
    expect(order.slice(0, 3)).toEqual(['large-0', 'large-1', 'small-0']);
    expect(order).toHaveLength(7);
  });

  it('takes a waiting call out of the queue when its signal aborts, and frees nothing it did not hold', async () => {
    const limiter = new FairLimiter(1);
    const holding = gate();
    const held = limiter.run('a', () => holding.opened);
    const controller = new AbortController();
    const waiting = limiter.run('b', () => Promise.resolve('ran'), controller.signal);
    await settle();
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(LimiterAbortedError);
    expect(limiter.load).toEqual({ running: 1, waiting: 0 });
    holding.open();
    await held;
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
    await expect(limiter.run('c', () => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('frees its place when the call fails', async () => {
    const limiter = new FairLimiter(1);
    await expect(limiter.run('a', () => Promise.reject(new Error('provider down')))).rejects.toThrow(
      'provider down',
    );
    await expect(limiter.run('a', () => Promise.resolve(1))).resolves.toBe(1);
  });
});

import { PassScheduler } from './pass-scheduler';

describe('PassScheduler', () => {
  it('never overlaps passes, and a request during a pass gets one more pass after it', async () => {
    const log: string[] = [];
    let n = 0;
    const scheduler = new PassScheduler(async () => {
      const id = ++n;
      log.push(`start ${id}`);
      await new Promise((r) => setTimeout(r, 20));
      log.push(`end ${id}`);
    });
    const first = scheduler.run();
    const second = scheduler.run();
    const third = scheduler.run(); // joins the scheduled second pass
    await Promise.all([first, second, third]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs on its interval until stopped, and stop waits for the pass in progress', async () => {
    let passes = 0;
    const scheduler = new PassScheduler(async () => {
      passes += 1;
      await new Promise((r) => setTimeout(r, 5));
    });
    scheduler.start(10);
    await new Promise((r) => setTimeout(r, 60));
    await scheduler.stop();
    const after = passes;
    expect(after).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 40));
    expect(passes).toBe(after);
  });
});

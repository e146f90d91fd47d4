import './kafkajs-negative-timeout';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, as the patch loads it
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (options: object) => {
  throttledUntil: number;
  pending: unknown[];
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
};

const queue = () =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: true,
    clientId: 'spec',
    broker: '127.0.0.1:9092',
    logger: { debug() {}, info() {}, warn() {}, error() {}, namespace: () => ({}) },
  });

describe('kafkajs request queue timers on Node 24', () => {
  // The delays the queue asks Node for (Node 24 prints a TimeoutNegativeWarning for a negative one). The warning itself
  // goes to the worker's real process, which a spec's `process` does not see: the delay is what is checked.
  let delays: number[] = [];
  beforeEach(() => {
    delays = [];
    const original = global.setTimeout;
    jest.spyOn(global, 'setTimeout').mockImplementation((callback: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return original(callback, ms);
    });
  });
  afterEach(() => jest.restoreAllMocks());
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const settle = () => sleep(30);

  it('given a fresh queue with nothing pending, when it schedules its check, then no negative timer is asked for and the check runs', async () => {
    const q = queue();
    const checked = jest.spyOn(q, 'checkPendingRequests').mockImplementation(() => undefined);
    q.scheduleCheckPendingRequests();
    expect(delays).toEqual([1]);
    await settle();
    expect(checked).toHaveBeenCalledTimes(1);
  });

  it('given pending requests and no throttle, then the check comes after kafkajs interval; given a throttle, at its end', async () => {
    const q = queue();
    q.pending.push({});
    const checked = jest.spyOn(q, 'checkPendingRequests').mockImplementation(() => undefined);
    q.scheduleCheckPendingRequests();
    expect(delays).toEqual([10]);
    await settle();
    expect(checked).toHaveBeenCalledTimes(1);
    q.throttledUntil = Date.now() + 200;
    q.scheduleCheckPendingRequests();
    await settle();
    expect(checked).toHaveBeenCalledTimes(1);
    expect(delays[2]).toBeGreaterThan(150);
    await sleep(250);
    expect(checked).toHaveBeenCalledTimes(2);
  });
});

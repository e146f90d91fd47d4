import { type Decider, storedEventShapes } from '@svc/contract';
import { aggregateStream, foldStoredEvents } from './aggregate-stream';
import { handleCommand } from './handle-command';
import { MalformedEventError } from './malformed-event.error';
import { MemoryEventStore } from './memory/memory-event-store.adapter';
import {
  reportStoredEventProblemsTo,
  resetStoredEventProblems,
  type StoredEventProblem,
  storedEventProblemCount,
} from './stored-event-problems';

/** A counter stream: Added adds `by`, Reset starts over. Its data checks: `by` is a number. */
type CounterEvent = { type: 'Added'; data: { by: number } } | { type: 'Reset'; data: { at: number } };
type CounterCommand = { type: 'Add'; by: number };
const evolve = (total: number, e: CounterEvent): number => (e.type === 'Added' ? total + e.data.by : 0);
const decide = (command: CounterCommand): CounterEvent[] => [{ type: 'Added', data: { by: command.by } }];
const counter: Decider<number, CounterCommand, CounterEvent> = {
  name: 'counter',
  initialState: 0,
  evolve,
  decide,
  ...storedEventShapes<CounterEvent>({ Added: (data) => typeof data['by'] === 'number', Reset: true }),
};
/** The same rules as a decider written before knownEventTypes and isEvent existed. */
const legacyCounter: Decider<number, CounterCommand, CounterEvent> = { initialState: 0, evolve, decide };

const added = (by: number) => ({ id: crypto.randomUUID(), type: 'Added', data: { by } });
const stored = (type: string, data: unknown) => ({
  id: crypto.randomUUID(),
  type,
  data: data as Record<string, unknown>,
});

describe('aggregateStream: stored events its decider does not know or cannot fold', () => {
  let store: MemoryEventStore;
  let told: { problem: StoredEventProblem; message: string }[];

  beforeEach(() => {
    store = new MemoryEventStore();
    resetStoredEventProblems();
    told = [];
    reportStoredEventProblemsTo((problem, message) => told.push({ problem, message }));
  });

  afterEach(async () => {
    reportStoredEventProblemsTo(null);
    resetStoredEventProblems();
    await store.close();
  });

  it('skips an event of a type the decider does not know: the stream folds as if it were not there', async () => {
    await store.append('counter-a', [added(2), stored('Doubled', { factor: 2 }), added(3)], {
      expectedRevision: 'no_stream',
    });
    await expect(aggregateStream(store, 'counter-a', counter)).resolves.toEqual({ state: 5, revision: 2 });
    expect(storedEventProblemCount('unknown_type', 'counter', 'Doubled')).toBe(1);
  });

  it('logs an unknown type once per decider and type, however many streams and reads hold it, and counts each', async () => {
    for (const id of ['counter-a', 'counter-b']) {
      await store.append(id, [stored('Doubled', {}), added(1), stored('Halved', {}), stored('Doubled', {})], {
        expectedRevision: 'no_stream',
      });
      await aggregateStream(store, id, counter);
      await aggregateStream(store, id, counter);
    }
    expect(told.map((t) => [t.problem.kind, t.problem.decider, t.problem.type])).toEqual([
      ['unknown_type', 'counter', 'Doubled'],
      ['unknown_type', 'counter', 'Halved'],
    ]);
    expect(told[0]).toMatchObject({ problem: { streamId: 'counter-a', revision: 0 } });
    expect(told[0].message).toContain('Doubled');
    expect(storedEventProblemCount('unknown_type', 'counter', 'Doubled')).toBe(8);
    expect(storedEventProblemCount('unknown_type', 'counter', 'Halved')).toBe(4);
  });

  it('decides a command on a stream holding an unknown type, and appends after it', async () => {
    await store.append('counter-a', [added(2), stored('Doubled', {})], { expectedRevision: 'no_stream' });
    const result = await handleCommand(
      store,
      'counter-a',
      counter,
      { type: 'Add', by: 1 },
      { stepId: 'add' },
    );
    expect(result).toMatchObject({ state: 3, revision: 2 });
  });

  it.each([
    ['data without the field evolve reads', { other: 1 }],
    ['data that is not an object', 'seven'],
    ['data that is null', null],
    ['data that is an array', [1, 2]],
  ])(
    'refuses the stream of a known type with %s: MalformedEventError naming stream, revision and type',
    async (_, data) => {
      await store.append('counter-bad', [added(1), stored('Added', data), added(1)], {
        expectedRevision: 'no_stream',
      });
      const read = aggregateStream(store, 'counter-bad', counter);
      await expect(read).rejects.toThrow(MalformedEventError);
      await expect(read).rejects.toMatchObject({
        streamId: 'counter-bad',
        revision: 1,
        type: 'Added',
        decider: 'counter',
      });
      expect(storedEventProblemCount('malformed', 'counter', 'Added')).toBe(1);
    },
  );

  it('refuses only that stream: every other stream reads, and takes commands, as before', async () => {
    await store.append('counter-bad', [stored('Added', { by: 'x' })], { expectedRevision: 'no_stream' });
    await store.append('counter-good', [added(4)], { expectedRevision: 'no_stream' });
    await expect(aggregateStream(store, 'counter-bad', counter)).rejects.toThrow(MalformedEventError);
    await expect(aggregateStream(store, 'counter-good', counter)).resolves.toEqual({ state: 4, revision: 0 });
    await expect(
      handleCommand(store, 'counter-good', counter, { type: 'Add', by: 1 }, { stepId: 's' }),
    ).resolves.toMatchObject({ state: 5 });
  });

  it('refuses a command on the malformed stream and appends nothing to it', async () => {
    await store.append('counter-bad', [stored('Added', { by: 'x' })], { expectedRevision: 'no_stream' });
    await expect(
      handleCommand(store, 'counter-bad', counter, { type: 'Add', by: 1 }, { stepId: 's' }),
    ).rejects.toThrow(MalformedEventError);
    expect(await store.readStream('counter-bad')).toHaveLength(1);
  });

  it('logs a malformed event once per stream and revision, and counts every read of it', async () => {
    await store.append('counter-bad', [stored('Added', {}), stored('Reset', 3)], {
      expectedRevision: 'no_stream',
    });
    for (let i = 0; i < 3; i++) {
      await expect(aggregateStream(store, 'counter-bad', counter)).rejects.toThrow(MalformedEventError);
    }
    expect(told).toEqual([
      {
        problem: {
          kind: 'malformed',
          decider: 'counter',
          type: 'Added',
          streamId: 'counter-bad',
          revision: 0,
        },
        message: expect.stringContaining('counter-bad') as string,
      },
    ]);
    expect(storedEventProblemCount('malformed', 'counter', 'Added')).toBe(3);
  });

  it('refuses, rather than returns, a fold that gives no state', async () => {
    const broken: Decider<number, CounterCommand, CounterEvent> = {
      ...legacyCounter,
      evolve: (total, e) => (e.type === 'Added' ? total + e.data.by : (undefined as unknown as number)),
    };
    await store.append('counter-a', [added(1), stored('Doubled', {})], { expectedRevision: 'no_stream' });
    await expect(aggregateStream(store, 'counter-a', broken)).rejects.toMatchObject({
      name: 'MalformedEventError',
      streamId: 'counter-a',
      revision: 1,
      type: 'Doubled',
      decider: 'counter', // no name: the stream id's prefix
    });
  });

  it('folds every stored event as it is for a decider that names neither its types nor their shape', async () => {
    await store.append('counter-a', [added(2), stored('Reset', { at: 1 }), added(3)], {
      expectedRevision: 'no_stream',
    });
    await expect(aggregateStream(store, 'counter-a', legacyCounter)).resolves.toEqual({
      state: 3,
      revision: 2,
    });
    expect(told).toEqual([]);
  });

  it('goes on folding when the reporter throws', async () => {
    reportStoredEventProblemsTo(() => {
      throw new Error('log sink down');
    });
    await store.append('counter-a', [added(2), stored('Doubled', {})], { expectedRevision: 'no_stream' });
    await expect(aggregateStream(store, 'counter-a', counter)).resolves.toEqual({ state: 2, revision: 1 });
  });

  it('foldStoredEvents: folds the events after a fold already held, by the same rules', async () => {
    await store.append('counter-a', [added(2), stored('Doubled', {}), added(3), stored('Added', [])], {
      expectedRevision: 'no_stream',
    });
    const [first, ...rest] = await store.readStream('counter-a');
    const held = foldStoredEvents(counter, counter.initialState, [first]);
    expect(foldStoredEvents(counter, held, rest.slice(0, 2))).toBe(5);
    expect(() => foldStoredEvents(counter, held, rest)).toThrow(MalformedEventError);
  });
});

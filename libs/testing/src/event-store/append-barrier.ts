/** The one method of an event store the barrier holds back (structural, so this lib needs no event-store import). */
interface Appending {
  append(streamId: string, ...rest: never[]): Promise<unknown>;
}

/**
 * The store, except that appends to streams starting with `streamPrefix` wait until `parties` of them are waiting,
 * then all go on in arrival order: overlapping runs of one use case are made to overlap for certain, every run
 * having read and decided before any of them writes. Reads and other streams pass straight through.
 */
export function withAppendBarrier<S extends Appending>(store: S, streamPrefix: string, parties: number): S {
  let waiting = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') {
        return async (streamId: string, ...rest: never[]) => {
          if (streamId.startsWith(streamPrefix)) {
            waiting += 1;
            if (waiting >= parties) release();
            await released;
          }
          return target.append(streamId, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

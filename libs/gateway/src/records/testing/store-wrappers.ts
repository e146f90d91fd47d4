import { type EventStore, type RecordedEvent } from '@svc/event-store';

/** A store whose methods are the store's own, except those `override` names. */
function wrapped(store: EventStore, override: Partial<EventStore>): EventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (Object.hasOwn(override, key)) return override[key as keyof EventStore];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The store, noting every stream an append wrote to (an expired stream too: it outlives its events). */
export function countingStreams(store: EventStore): { store: EventStore; streams: Set<string> } {
  const streams = new Set<string>();
  const append: EventStore['append'] = (streamId, events, options) => {
    streams.add(streamId);
    return store.append(streamId, events, options);
  };
  return { store: wrapped(store, { append }), streams };
}

/**
 * The store's streams under `namespace` (their ids prefixed with it): what the records read and write through
 * append, readStream and readStreamRevision, so cases sharing one server (EventStoreDB) keep apart.
 */
export function namespacedStreams(store: EventStore, namespace: string): EventStore {
  const own = (event: RecordedEvent): RecordedEvent => ({
    ...event,
    streamId: event.streamId.slice(namespace.length),
  });
  return wrapped(store, {
    append: (streamId, events, options) => store.append(`${namespace}${streamId}`, events, options),
    readStream: async (streamId, options) =>
      (await store.readStream(`${namespace}${streamId}`, options)).map(own),
    readStreamRevision: (streamId) => store.readStreamRevision(`${namespace}${streamId}`),
  });
}

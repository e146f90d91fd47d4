import { type EventStore } from './event-store.port';

/**
 * The store with its `append` replaced (and any `extra` properties added), every other member the store's own: what
 * the store decorators (traceAppends, watchWrites) wrap. Methods are bound once, not on every call (the status read
 * path calls the store on every request).
 */
export function withAppend(
  store: EventStore,
  append: EventStore['append'],
  extra: Record<PropertyKey, unknown> = {},
): EventStore {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      if (Object.hasOwn(extra, property)) return extra[property];
      if (bound.has(property)) return bound.get(property);
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, method);
      return method;
    },
  });
}

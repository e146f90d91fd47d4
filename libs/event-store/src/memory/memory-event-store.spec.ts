import { ManualClock } from '@svc/testing';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { MemoryEventStore } from './memory-event-store.adapter';

describeEventStoreContract('memory', () => {
  const time = new ManualClock(Date.now());
  const clock = () => new Date(time.now());
  let store = new MemoryEventStore({ clock });
  return Promise.resolve({
    store,
    advanceClock: (ms) => time.advance(ms),
    subscriptionReads: () => store.subscriptionReads,
    restart: async () => {
      await store.close();
      store = new MemoryEventStore({ clock, state: store.state });
      return store;
    },
    cleanup: () => store.close(),
  });
});

import { controllableClock } from '../testing/controllable-clock';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { MemoryEventStore } from './memory-event-store.adapter';

describeEventStoreContract('memory', () => {
  const { clock, advance } = controllableClock();
  let store = new MemoryEventStore({ clock });
  return Promise.resolve({
    store,
    advanceClock: advance,
    restart: async () => {
      await store.close();
      store = new MemoryEventStore({ clock, state: store.state });
      return store;
    },
    cleanup: () => store.close(),
  });
});

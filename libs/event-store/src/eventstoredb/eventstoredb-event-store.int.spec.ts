import { describeEventStoreContract } from '../testing/event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store.adapter';
import { probeContainerRuntime, type RunningEventStoreDb, startEventStoreDb } from '@svc/testing';

const runtime = probeContainerRuntime();
if (!runtime.available) {
  process.stdout.write(`eventstoredb contract: skipped, no container runtime (${runtime.reason})\n`);
}

// Skipped where no container runtime answers (EventStoreDB runs in a container; the reason is printed at collection).
(runtime.available ? describe : describe.skip)('EventStoreDbEventStore', () => {
  let server: RunningEventStoreDb | undefined;

  beforeAll(async () => {
    server = await startEventStoreDb();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  // One server for the file, a new client per case: cases keep apart by their unique stream names.
  describeEventStoreContract('eventstoredb', () => {
    const connect = (): EventStoreDbEventStore => {
      if (server === undefined) throw new Error('EventStoreDB did not start');
      return EventStoreDbEventStore.fromConnectionString(server.connectionString);
    };
    let store = connect();
    return Promise.resolve({
      store,
      restart: async () => {
        await store.close();
        store = connect();
        return store;
      },
      cleanup: () => store.close(),
    });
  });
});

export interface RunningEventStoreDb {
  connectionString: string;
  stop(): Promise<void>;
}

/** A throwaway single-node EventStoreDB (in-memory, insecure, no projections) for integration tests. */
export async function startEventStoreDb(): Promise<RunningEventStoreDb> {
  // Loaded on use: importing testcontainers costs every spec that imports @svc/testing otherwise.
  const { GenericContainer, getContainerRuntimeClient, Wait } = await import('testcontainers');
  await getContainerRuntimeClient();
  const container = await new GenericContainer('eventstore/eventstore:24.10')
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_MEM_DB: 'true',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(
      Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status >= 200 && status < 300),
    )
    .withStartupTimeout(120_000)
    .start();
  return {
    connectionString: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}

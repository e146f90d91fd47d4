import type * as KurrentClient from '@kurrent/kurrentdb-client';

let loaded: typeof KurrentClient | undefined;

/**
 * The KurrentDB/EventStoreDB client library, loaded on first use. Importing `@svc/event-store` must not load it: it
 * (with gRPC and protobuf) costs about 28 MB of RSS that a process on the SQLite or memory store never uses
 * (tools/bench/results/profiles.md).
 */
export function kurrent(): typeof KurrentClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy (see above)
  loaded ??= require('@kurrent/kurrentdb-client') as typeof KurrentClient;
  return loaded;
}

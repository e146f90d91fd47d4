import type { Clock } from '@svc/platform';
import { type RequestRecords } from '../request-records.port';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store.adapter';
import { SqliteNonceStore } from './sqlite-nonce-store.adapter';

export interface SqliteRequestRecordsOptions {
  /** The records' own file (not the event store's): DATA_DIR/requests.sqlite in the apps. */
  file: string;
  idempotencyRetentionSeconds: number;
  clock?: Clock;
}

/** Request records in tables of one SQLite file, a connection per table. */
export function openSqliteRequestRecords(options: SqliteRequestRecordsOptions): RequestRecords {
  const nonces = SqliteNonceStore.open({
    file: options.file,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  try {
    const idempotency = SqliteIdempotencyStore.open({
      file: options.file,
      retentionSeconds: options.idempotencyRetentionSeconds,
    });
    return {
      nonces,
      idempotency,
      close: async () => {
        await nonces.close();
        await idempotency.close();
      },
    };
  } catch (err) {
    void nonces.close();
    throw err;
  }
}

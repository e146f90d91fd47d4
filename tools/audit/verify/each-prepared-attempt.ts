import { ATTEMPT_STREAM_PREFIX, type AttemptPreparedData } from '@svc/domain';
import { type EventStore } from '@svc/event-store';

export interface EachAttemptOptions {
  /** Which attempts to visit, by what they were prepared with. */
  filter: (prepared: AttemptPreparedData) => boolean;
  /** Events read per page (default 500). */
  pageSize?: number;
  /** Attempts visited at once within a page (default 4). */
  concurrency?: number;
}

/**
 * Visits every attempt of the store once, in the order they were prepared, by walking the attempt streams of the
 * global log a page at a time: the next page is read only when the visits of this one are done, so memory holds one
 * page and the visits in flight, however many attempts the store has.
 */
export async function forEachPreparedAttempt(
  store: EventStore,
  options: EachAttemptOptions,
  visit: (prepared: AttemptPreparedData) => Promise<void>,
): Promise<void> {
  const pageSize = options.pageSize ?? 500;
  let after: string | undefined;
  for (;;) {
    const page = await store.readAll({ after, streamPrefixes: [ATTEMPT_STREAM_PREFIX], maxCount: pageSize });
    const prepared = page
      .filter((e) => e.type === 'AttemptPrepared')
      .map((e) => e.data as unknown as AttemptPreparedData)
      .filter(options.filter);
    await inPool(prepared, options.concurrency ?? 4, visit);
    const last = page.at(-1);
    if (last === undefined) return;
    if (page.length < pageSize) return;
    after = last.position;
  }
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/** The call was still waiting for a place when its caller gave up (its deadline fired). */
export class LimiterAbortedError extends Error {
  override readonly name = 'LimiterAbortedError';
}

interface Waiting {
  start: () => void;
  abandon: (reason: unknown) => void;
}

/**
 * At most `limit` calls at once, shared by every request, handed out fairly: when a place frees, the next call comes
 * from the request after the one served last (round robin over the requests that have calls waiting), so one request
 * with 150 calls cannot make a one-call request wait behind all of them. A waiting call leaves the queue when its
 * signal aborts. One limiter per provider keeps a burst of large quotes from overloading any provider, and the
 * service's answer stays on time because the quote deadline counts the wait.
 */
export class FairLimiter {
  private running = 0;
  /** Requests with calls waiting, in the order they will be served; each request's calls in arrival order. */
  private readonly queues = new Map<string, Waiting[]>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit ${limit} is not a positive integer`);
  }

  /** Calls waiting and running now (for metrics and tests). */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const q of this.queues.values()) waiting += q.length;
    return { running: this.running, waiting };
  }

  async run<T>(requestId: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.limit || this.queues.size > 0) await this.wait(requestId, signal);
    else this.running++;
    try {
      return await call();
    } finally {
      this.release();
    }
  }

  private wait(requestId: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new LimiterAbortedError('aborted before it started'));
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(requestId) ?? [];
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        abandon: reject,
      };
      const onAbort = () => {
        const q = this.queues.get(requestId);
        const at = q?.indexOf(entry) ?? -1;
        if (q && at >= 0) {
          q.splice(at, 1);
          if (q.length === 0) this.queues.delete(requestId);
          reject(new LimiterAbortedError('aborted while waiting for a place'));
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(entry);
      this.queues.set(requestId, queue);
    });
  }

  /** A place is free: the next request in turn gets it, and goes to the back of the turn. */
  private release(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [requestId, queue] = next.value;
    const entry = queue.shift()!;
    this.queues.delete(requestId);
    if (queue.length > 0) this.queues.set(requestId, queue); // back of the turn
    entry.start(); // the place passes on: running stays the same
  }
}

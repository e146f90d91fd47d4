/**
 * kafkajs 2.2.4 asks Node for a negative timer on every broker connection: its request queue starts with
 * `throttledUntil = -1` and `scheduleCheckPendingRequests` calls `setTimeout(check, throttledUntil - Date.now())`
 * when nothing is pending (node_modules/kafkajs/src/network/requestQueue/index.js). Node has always run such a timer
 * after 1 ms; since Node 23 it also prints a `TimeoutNegativeWarning` to stderr, once per process, in every app that
 * talks to Kafka. kafkajs has no release to fix it (ADR 0010), so the method is replaced here by the same logic with
 * the delay clamped to the 1 ms Node used: the behaviour is unchanged, the warning is gone. Imported for its effect by
 * every module that loads kafkajs.
 */
/** kafkajs' CHECK_PENDING_REQUESTS_INTERVAL, in the same file. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface KafkaRequestQueue {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  pending: unknown[];
  checkPendingRequests(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class: no types, no ESM export
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
  prototype: KafkaRequestQueue & { scheduleCheckPendingRequests(): void };
};
const prototype = RequestQueue.prototype;
prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: KafkaRequestQueue) {
  let scheduleAt = this.throttledUntil - Date.now();
  if (this.throttleCheckTimeoutId) return;
  if (this.pending.length > 0) scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    Math.max(1, scheduleAt),
  );
};

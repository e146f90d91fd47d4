import { WebhookDeliveryInputError } from './webhook-delivery-input.error';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay after the n-th failed try (index n − 1), before jitter. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** The first try plus one retry per schedule step; a failure of the last one abandons the event. */
export const MAX_DELIVERY_TRIES = RETRY_SCHEDULE_MS.length + 1;

/** ±10 % so that a partner's outage does not bring every queued retry back in the same second. */
export const RETRY_JITTER = 0.1;

/**
 * The delay before the next try after `failedTries` failures (1 ≤ failedTries < MAX_DELIVERY_TRIES), jittered by
 * `random` in [0, 1): 0.5 gives the schedule exactly.
 */
export function retryDelayMs(failedTries: number, random: number): number {
  if (!(random >= 0 && random < 1)) throw new WebhookDeliveryInputError(`random ${random} is not in [0, 1)`);
  const delay = RETRY_SCHEDULE_MS[failedTries - 1];
  if (delay === undefined) throw new WebhookDeliveryInputError(`no retry after ${failedTries} tries`);
  return Math.round(delay * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}

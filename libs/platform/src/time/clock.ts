/** Time and ids are injected (ARCHITECTURE.md "Money and time"): tests run on a controllable clock. */
export interface Clock {
  now(): number;
}
export const CLOCK = Symbol('CLOCK');
export const systemClock: Clock = { now: () => Date.now() };

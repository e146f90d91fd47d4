/** Time and ids are injected (ARCHITECTURE.md "Money and time"): tests run on a controllable clock. */
export interface Clock {
  now(): number;
}
export const CLOCK = Symbol('CLOCK');
export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

import { type Clock } from '@svc/platform';

/** A clock that moves only when the test moves it (ARCHITECTURE.md "Money and time"). */
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

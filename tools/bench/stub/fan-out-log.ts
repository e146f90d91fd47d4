import { performance } from 'node:perf_hooks';

/** One quote's provider calls as the stubs saw them, by round: a round's calls wait only on the round before. */
export interface FanOut {
  rounds: string[][];
}

interface Call {
  key: string;
  provider: string;
  round: number;
  answeredAt: number | null;
}

/**
 * The calls the stubs received since the last `take`, each with its round: 1, or one more than the latest round of a
 * call to the same provider that had already been answered when it arrived. That is how a follow-up call shows (Mayan's
 * get-swap, sent once its quote answered): the floor of a quote is its rounds × the stubs' delay, not one delay.
 * A per-provider cap in the service that held calls back past an answer would show as extra rounds too.
 */
export class FanOutLog {
  private calls: Call[] = [];

  arrive(key: string, provider: string): { answered(): void } {
    const before = this.calls.filter((c) => c.provider === provider && c.answeredAt !== null);
    const call: Call = {
      key,
      provider,
      round: 1 + Math.max(0, ...before.map((c) => c.round)),
      answeredAt: null,
    };
    this.calls.push(call);
    return { answered: () => (call.answeredAt = performance.now()) };
  }

  take(): FanOut {
    const rounds: string[][] = [];
    for (const call of this.calls) (rounds[call.round - 1] ??= []).push(call.key);
    this.calls = [];
    return { rounds: rounds.filter((r) => r !== undefined) };
  }
}

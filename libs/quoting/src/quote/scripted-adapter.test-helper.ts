import {
  type ProviderAdapter,
  type ProviderTrackingTraits,
  type QuoteFailureReason,
  type QuoteResult,
  type QuoteSlice,
  type RoutableProvider,
  type StatusResult,
} from '@svc/providers';
import { providerQuote, quoteFailure } from './provider-answers.test-helper';

/** How a scripted provider answers one slice: after `afterMs` with a quote or a refusal, by failing, or not at all. */
export type Behaviour =
  | { afterMs: number; answer: 'quote' }
  | { afterMs: number; answer: 'failure'; reasonCode: QuoteFailureReason; reason: string }
  | { afterMs: number; answer: 'reject'; error: unknown }
  /** Answers nothing, and rejects with the signal's reason once it is aborted (as fetch does). */
  | { answer: 'until-aborted' };

export type Script = (slice: QuoteSlice) => Behaviour;

/**
 * Scripted provider adapters on real timers, and what they saw: how many quotes were in flight at once, and every
 * answer still due, so a test can wait them out and none outlives it.
 */
export class QuoteScript {
  inFlight = 0;
  maxInFlight = 0;
  private readonly pending: Promise<unknown>[] = [];

  adapters(scripts: Partial<Record<RoutableProvider, Script>>): Record<RoutableProvider, ScriptedAdapter> {
    const inTenMs: Script = () => ({ afterMs: 10, answer: 'quote' });
    return {
      relay: new ScriptedAdapter('relay', scripts.relay ?? inTenMs, this),
      across: new ScriptedAdapter('across', scripts.across ?? inTenMs, this),
      mayan: new ScriptedAdapter('mayan', scripts.mayan ?? inTenMs, this),
    };
  }

  after<T>(ms: number, settle: () => T): Promise<T> {
    return this.track(new Promise<void>((resolve) => setTimeout(resolve, ms)).then(settle));
  }

  track<T>(answer: Promise<T>): Promise<T> {
    this.pending.push(answer.catch(() => undefined));
    return answer;
  }

  /** Resolves once every answer scripted so far has been given. */
  async settled(): Promise<void> {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }
}

/** A ProviderAdapter that answers quotes as scripted; tracking is never asked at quote time. */
export class ScriptedAdapter implements ProviderAdapter {
  readonly tracking: ProviderTrackingTraits = {
    pollsBeforeSourceTx: false,
    minPollIntervalMs: 5_000,
    failureGraceMs: 0,
  };
  /** The signal of every quote asked, in order. */
  readonly signals: AbortSignal[] = [];

  constructor(
    readonly name: RoutableProvider,
    private readonly script: Script,
    private readonly run: QuoteScript,
  ) {}

  explorerUrl(): string | null {
    return null;
  }

  depositRefs(): string[] {
    return [];
  }

  quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    this.signals.push(options.signal);
    this.run.inFlight += 1;
    this.run.maxInFlight = Math.max(this.run.maxInFlight, this.run.inFlight);
    const answer = this.answer(slice, options.signal);
    void answer.finally(() => (this.run.inFlight -= 1)).catch(() => undefined);
    return answer;
  }

  status(): Promise<StatusResult> {
    return Promise.reject(new Error('status is not asked at quote time'));
  }

  private answer(slice: QuoteSlice, signal: AbortSignal): Promise<QuoteResult> {
    const b = this.script(slice);
    switch (b.answer) {
      case 'quote':
        return this.run.after(b.afterMs, () => ({
          ok: true as const,
          quote: providerQuote(this.name, slice),
        }));
      case 'failure':
        return this.run.after(b.afterMs, () => ({
          ok: false as const,
          failure: quoteFailure(this.name, b.reasonCode, b.reason),
        }));
      case 'reject':
        return this.run.after(b.afterMs, () => {
          throw b.error;
        });
      case 'until-aborted':
        return this.run.track(
          new Promise<QuoteResult>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
          ),
        );
    }
  }
}

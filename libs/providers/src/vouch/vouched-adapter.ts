import { registeredMetric } from '@svc/platform';
import { Counter } from 'prom-client';
import { type Hex } from 'viem';
import { quoteFailure } from '../failures/quote-failure';
import { type StatusResult } from '../leg-progress';
import {
  type DepositSelector,
  type ProviderAdapter,
  type QuoteSlice,
  type ReceiptLog,
} from '../provider-adapter.port';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ContractAllowlist } from './provider-contracts';
import { vouchQuote } from './vouch-quote';

const refusedAnswers = registeredMetric(
  'provider_answers_refused_total',
  () =>
    new Counter({
      name: 'provider_answers_refused_total',
      help: 'Provider quotes refused because their calls or amounts broke a calldata check, by rule',
      labelNames: ['provider', 'rule'] as const,
    }),
);

/**
 * A provider adapter whose quotes pass `vouchQuote` or become a `route_unavailable` failure, so nothing else
 * (quote evaluation, the intent session's stored calls, prepare's re-quote) ever sees calls we cannot vouch for.
 */
export class VouchedProviderAdapter implements ProviderAdapter {
  readonly name: ProviderAdapter['name'];
  readonly tracking: ProviderAdapter['tracking'];

  constructor(
    private readonly adapter: ProviderAdapter,
    private readonly allowlist: ContractAllowlist,
  ) {
    this.name = adapter.name;
    this.tracking = adapter.tracking;
  }

  async quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    const result = await this.adapter.quote(slice, options);
    if (!result.ok) return result;
    const refused = vouchQuote(result.quote, slice, this.allowlist);
    if (refused === null) return result;
    refusedAnswers.inc({ provider: this.name, rule: refused.rule });
    return quoteFailure(this.name, 'route_unavailable', `${this.name} answer refused: ${refused.reason}`);
  }

  depositRefs(logs: readonly ReceiptLog[]): string[] {
    return this.adapter.depositRefs(logs);
  }

  explorerUrl(context: TrackingContext, sourceTxHash: Hex | null): string | null {
    return this.adapter.explorerUrl(context, sourceTxHash);
  }

  status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult> {
    return this.adapter.status(context, options);
  }
}

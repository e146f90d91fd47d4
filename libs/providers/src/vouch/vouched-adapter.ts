import { registeredMetric } from '@svc/platform';
import { Counter } from 'prom-client';
import { type Address, type Hex } from 'viem';
import { type CctpBurn } from '../cctp/cctp-burn';
import { CCTP_TOPICS } from '../cctp/cctp-events';
import { quoteFailure } from '../failures/quote-failure';
import { emittedByAny, type FillRecord, type FillRecordQuery } from '../fill-record';
import { type StatusResult } from '../leg-progress';
import {
  type DepositScope,
  type DepositSelector,
  type ProviderAdapter,
  type QuoteSlice,
  type DepositTerms,
  type ReceiptLog,
} from '../provider-adapter.port';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ContractAllowlist } from './provider-contracts';
import { vouchQuote } from './vouch-quote';

const refusedAnswers = registeredMetric(
  'intent_provider_answers_refused_total',
  () =>
    new Counter({
      name: 'intent_provider_answers_refused_total',
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

  /**
   * The wrapped adapter's deposits among the events the provider's own contracts emitted on the source chain: the
   * allowlisted targets there (Across's SpokePools) and the contracts the leg's quote named (Mayan's Swift), so
   * another contract's look-alike event in the same transaction (a wallet batch) shifts no index (providers review
   * N12). Without a scope, or for a leg whose context names no contract it should, every log is read, as before.
   */
  depositRefs(logs: readonly ReceiptLog[], scope?: DepositScope): string[] {
    return this.adapter.depositRefs(this.emittedByProvider(logs, scope), scope);
  }

  /** The wrapped adapter's deposit terms (fill deadline, refund token), when it reads them (issue 24 item 2). */
  depositTerms(logs: readonly ReceiptLog[], scope?: DepositScope): DepositTerms[] {
    return this.adapter.depositTerms?.(this.emittedByProvider(logs, scope), scope) ?? [];
  }

  quotedContracts(context: TrackingContext): readonly Address[] | null {
    return this.adapter.quotedContracts === undefined ? [] : this.adapter.quotedContracts(context);
  }

  private emittedByProvider(
    logs: readonly ReceiptLog[],
    scope: DepositScope | undefined,
  ): readonly ReceiptLog[] {
    const emitters = scope === undefined ? undefined : this.emitters(scope.chainId, scope.context);
    return emitters === undefined ? logs : logs.filter((log) => emittedByAny(log, emitters));
  }

  /** The provider's contracts on a chain: the allowlist's targets and what the quote named; undefined: unknown. */
  private emitters(chainId: number, context: TrackingContext): readonly Address[] | undefined {
    const named = this.quotedContracts(context);
    if (named === null) return undefined;
    return [...(this.allowlist.get(chainId)?.targets ?? []), ...named];
  }

  /** The wrapped adapter's CCTP burn messages (an Across leg routed over CCTP), when it reads them. */
  depositCctpBurns(logs: readonly ReceiptLog[], scope?: DepositScope): (CctpBurn | null)[] {
    // The same deposits as depositRefs (emitted by the provider's contracts), with the MessageTransmitter's
    // MessageSent kept: the adapter pairs each burn with the message before it and drops a message that disagrees.
    const messages = new Set(logs.filter((log) => log.topics[0]?.toLowerCase() === CCTP_TOPICS.messageSent));
    const scoped = new Set(this.emittedByProvider(logs, scope));
    const kept = logs.filter((log) => scoped.has(log) || messages.has(log));
    return this.adapter.depositCctpBurns?.(kept, scope) ?? [];
  }

  /**
   * The wrapped adapter's record, emitted only by the provider's allowlisted contracts on the fill's chain (the
   * targets its quotes may call there: Across's SpokePool among them), so a look-alike event of another contract in
   * the same transaction is nobody's record (providers review N12).
   */
  fillRecord(context: TrackingContext, query: FillRecordQuery): FillRecord {
    // The quote's own contracts too: Mayan's OrderFulfilled is the Swift contract's, which the allowlist (the
    // forwarder) does not list. A leg stored without it keeps the allowlist alone.
    const emitters =
      this.emitters(query.chainId, context) ?? this.allowlist.get(query.chainId)?.targets ?? [];
    return this.adapter.fillRecord?.(context, { ...query, emitters }) ?? { kind: 'none' };
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

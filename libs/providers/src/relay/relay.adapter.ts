import { type Hex } from 'viem';
import { checkSlice } from '../check-slice';
import { quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type HttpSender } from '../http/fetch-json';
import { ProviderHttp } from '../http/provider-http';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type LegProgress, type StatusResult } from '../leg-progress';
import {
  type DepositSelector,
  type ProviderAdapter,
  type ProviderTrackingTraits,
  type QuoteSlice,
  type ReceiptLog,
} from '../provider-adapter.port';
import { type FillRecord, type FillRecordQuery } from '../fill-record';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { MalformedResponseError } from '../response/malformed-response.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { parseRelayQuote } from './parse-relay-quote';
import { relayActualOutput, relayRefundRecord } from './relay-actual-output';
import { RELAY_ERROR_CODES } from './relay-error-codes';
import { relayFillRecord } from './relay-fill-record';
import { relayFailReason, relayProgress, relayRequestData } from './relay-progress';
import { relayQuoteRequest } from './relay-quote-request';
import { RelayRequestBudget } from './relay-request-budget';

/** A Relay quote's life: "Quotes expire after 1 minute" (docs.relay.link /how-it-works/refunds). */
export const RELAY_QUOTE_LIFE_MS = 60_000;
/** How long after that a Relay refund is awaited: ours, Relay publishes none (see the adapter's traits). */
export const RELAY_REFUND_WINDOW_MS = 2 * 3_600_000;
/** relay-kit's status polling interval: `client.pollingInterval ?? 5000` (packages/sdk/src/utils/transaction.ts). */
export const RELAY_MIN_POLL_INTERVAL_MS = 5_000;

/** Relay (relay.link): quotes with ready transactions, tracked by the quote's requestId. */
export class RelayAdapter implements ProviderAdapter {
  readonly name = 'relay' as const;
  readonly tracking: ProviderTrackingTraits;

  constructor(
    private readonly config: ProvidersConfig['relay'],
    /** This provider's own keep-alive connection pool unless a test passes a stand-in. */
    private readonly http: HttpSender = new ProviderHttp(),
    /** The key's shared budget of non-quote requests (status, /requests/v3); one per adapter, so per process. */
    private readonly budget: RelayRequestBudget = new RelayRequestBudget(config.requestsPerMinute),
  ) {
    this.tracking = {
      // A request is found by the quote's requestId, so it can be polled before the deposit is seen (`waiting`).
      pollsBeforeSourceTx: true,
      // Relay publishes no per-request polling interval; its SDK polls every `pollingInterval ?? 5000` ms when the
      // websocket is off (relay-kit packages/sdk/src/utils/transaction.ts). No faster here (providers review N16);
      // the key's 200/min on endpoints other than /quote (docs references/api/api-keys) is kept by `budget`, this
      // process's share of it (RELAY_REQUESTS_PER_MINUTE, all of it by default: set it to 200 / the processes).
      minPollIntervalMs: RELAY_MIN_POLL_INTERVAL_MS,
      // "'failure' is not immediately terminal due to the refund flow: pending -> failure -> pending -> refund"
      // (relay-kit packages/sdk/src/utils/executeSteps/websocketHandlers.ts); refunds doc: relay-progress.ts.
      failureGraceMs: config.failureGraceMs,
      // Ours, used only when a quote carried no `details.timeEstimate` (each quote's own figure comes first).
      expectedFillSeconds: 60,
      // Relay names no fill deadline for a request; its quote lives a minute ("Quotes expire after 1 minute then a
      // new quote is generated", docs.relay.link /how-it-works/refunds), after which a deposit is filled at a new
      // quote or refunded. So a leg is followed from its deposit's confirmation, not from prepare.
      fillWindowMs: RELAY_QUOTE_LIFE_MS,
      // Relay publishes no refund window: its refunds doc says only that a refund is paid on the origin less gas
      // (references/api/api_core_concepts/refunds.mdx), relay-kit gives up waiting after 30 polls of 5 s
      // (packages/sdk/src/client.ts maxPollingAttemptsBeforeTimeout), and a manual refund (refundFailReason
      // MANUAL_REFUND_REQUIRED, relay-docs changelog 2026-08-07) has no figure at all. Ours: 2 h after the quote's
      // life, the tracking limit's default, now counted from the deposit (unverified).
      refundWindowMs: RELAY_REFUND_WINDOW_MS,
    };
  }

  /** Relay's page for a request (relay-kit packages/ui .../SwapSuccessStep.tsx: `${base}/transaction/${requestId}`). */
  explorerUrl(context: TrackingContext, _sourceTxHash: Hex | null): string | null {
    return context.provider === 'relay' ? `https://relay.link/transaction/${context.requestId}` : null;
  }

  /** Relay tracks a leg by its requestId, never by the receipt: no deposit of its own to name. */
  depositRefs(_logs: readonly ReceiptLog[]): string[] {
    return [];
  }

  /** The fill of this request: the transaction whose calldata ends with its id (relay-fill-record.ts). */
  fillRecord(context: TrackingContext, query: FillRecordQuery): FillRecord {
    if (context.provider !== 'relay') throw new TrackingContextMismatchError('relay', context.provider);
    return relayFillRecord(context.requestId, query);
  }

  async quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    const refused = checkSlice('relay', slice, { feeRecipientRequired: true });
    if (refused !== null) return refused;
    const result = await fetchJson(this.http, {
      method: 'POST',
      url: providerUrl(this.config.baseUrl, '/quote/v2'),
      headers: this.headers(),
      body: relayQuoteRequest(slice),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'relay', operation: 'quote' },
    });
    if (!isJsonSuccess(result)) return quoteFailureFromHttp('relay', result, RELAY_ERROR_CODES);
    return quoteFromParser('relay', result.status, () => parseRelayQuote(result.body, slice));
  }

  /** `deposit` is ignored: the requestId already names this leg's deposit, wherever it sits in a batch. */
  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'relay') throw new TrackingContextMismatchError('relay', context.provider);
    // Over the key's budget: not sent; the tracker asks again once the window has room, as after a 429.
    const wait = this.budget.take();
    if (wait !== null) return overBudget(wait, this.config.requestsPerMinute);
    const result = await fetchJson(this.http, {
      method: 'GET',
      url: providerUrl(this.config.baseUrl, '/intents/status/v3', { requestId: context.requestId }),
      headers: this.headers(),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'relay', operation: 'status' },
    });
    if (!isJsonSuccess(result)) return statusFailureFromHttp('relay', result);
    let progress: LegProgress;
    try {
      progress = relayProgress(result.body);
    } catch (error) {
      if (!(error instanceof MalformedResponseError)) throw error;
      return statusFailure(
        'provider_unavailable',
        `relay status answered malformed: ${error.message}`,
        result.status,
      );
    }
    if (this.config.apiKey === null) return { ok: true, progress };
    if (progress.state === 'filled' || progress.state === 'refunded') {
      // The terminal answer needs its /requests/v3 record too: without room for it, the whole poll waits.
      const recordWait = this.budget.take();
      if (recordWait !== null) return overBudget(recordWait, this.config.requestsPerMinute);
    }
    if (progress.state === 'filled')
      return { ok: true, progress: await this.withActualOutput(progress, context, options.signal) };
    if (progress.state === 'refunded')
      return { ok: true, progress: await this.withRefundChain(progress, context.requestId, options.signal) };
    return { ok: true, progress };
  }

  /**
   * `/requests/v3` needs an API key and is the only place with the received amount. It is best effort: the
   * fill is already certain, so a failed read leaves the amount unknown rather than the leg unsettled.
   */
  private async withActualOutput(
    progress: Extract<LegProgress, { state: 'filled' }>,
    context: Extract<TrackingContext, { provider: 'relay' }>,
    signal: AbortSignal,
  ): Promise<LegProgress> {
    const result = await this.requestRecord(context.requestId, signal);
    if (!isJsonSuccess(result)) return progress;
    const actual = relayActualOutput(result.body, {
      sameChain: context.originChainId === context.destinationChainId,
    });
    return {
      ...progress,
      destinationTxHash: actual.fillTxHash ?? progress.destinationTxHash,
      actualOutputRaw: actual.amount,
    };
  }

  /**
   * The status answer does not say which chain paid a refund (relay-progress.ts); the `/requests/v3` record does,
   * in `data.outTxs[].chainId`. Best effort like the fill amount: the refund is certain, only its chain may stay
   * unknown (null).
   */
  private async withRefundChain(
    progress: Extract<LegProgress, { state: 'refunded' }>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<LegProgress> {
    const result = await this.requestRecord(requestId, signal);
    if (!isJsonSuccess(result)) return progress;
    const refund = relayRefundRecord(result.body, progress.refundTxHash);
    const data = relayRequestData(result.body);
    return {
      ...progress,
      refundTxHash: progress.refundTxHash ?? refund.txHash,
      refundChainId: refund.chainId,
      refundToken: refund.token,
      reason: progress.reason ?? (data === undefined ? null : relayFailReason(data)),
    };
  }

  private requestRecord(requestId: string, signal: AbortSignal) {
    return fetchJson(this.http, {
      method: 'GET',
      url: providerUrl(this.config.baseUrl, '/requests/v3', { id: requestId }),
      headers: this.headers(),
      signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'relay', operation: 'requests' },
    });
  }

  private headers(): Record<string, string> {
    return this.config.apiKey === null ? {} : { 'x-api-key': this.config.apiKey };
  }
}

/** A status poll not sent because the key's budget is spent: unavailable for `waitMs`, as a 429 with Retry-After. */
function overBudget(waitMs: number, perMinute: number): StatusResult {
  return statusFailure(
    'provider_unavailable',
    `relay status not asked: this process's ${perMinute} requests per minute of the key (RELAY_REQUESTS_PER_MINUTE) are spent`,
    null,
    waitMs,
  );
}

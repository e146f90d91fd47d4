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
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { MalformedResponseError } from '../response/malformed-response.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { parseRelayQuote } from './parse-relay-quote';
import { relayActualOutput, relayRefundRecord } from './relay-actual-output';
import { RELAY_ERROR_CODES } from './relay-error-codes';
import { relayProgress } from './relay-progress';
import { relayQuoteRequest } from './relay-quote-request';

/** Relay (relay.link): quotes with ready transactions, tracked by the quote's requestId. */
export class RelayAdapter implements ProviderAdapter {
  readonly name = 'relay' as const;
  readonly tracking: ProviderTrackingTraits;

  constructor(
    private readonly config: ProvidersConfig['relay'],
    /** This provider's own keep-alive connection pool unless a test passes a stand-in. */
    private readonly http: HttpSender = new ProviderHttp(),
  ) {
    this.tracking = {
      // A request is found by the quote's requestId, so it can be polled before the deposit is seen (`waiting`).
      pollsBeforeSourceTx: true,
      // Relay publishes no per-request polling interval; its SDK polls every `pollingInterval ?? 5000` ms when the
      // websocket is off (relay-kit packages/sdk/src/utils/executeSteps/index.ts). Keyless limit: 200/min on
      // endpoints other than /quote (docs references/api/api-keys). One poll a second per leg stays well inside.
      minPollIntervalMs: 1000,
      // "'failure' is not immediately terminal due to the refund flow: pending -> failure -> pending -> refund"
      // (relay-kit packages/sdk/src/utils/executeSteps/websocketHandlers.ts); refunds doc: relay-progress.ts.
      failureGraceMs: config.failureGraceMs,
      // Ours, used only when a quote carried no `details.timeEstimate` (each quote's own figure comes first).
      expectedFillSeconds: 60,
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
    return {
      ...progress,
      refundTxHash: progress.refundTxHash ?? refund.txHash,
      refundChainId: refund.chainId,
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

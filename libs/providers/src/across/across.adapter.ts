import { type Hex } from 'viem';
import { checkSlice } from '../check-slice';
import { quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type FetchFn } from '../http/fetch-json';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type LegProgress, type StatusResult } from '../leg-progress';
import { type ProviderAdapter, type QuoteSlice } from '../provider-adapter.port';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { isRecord } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { acrossDepositOutput } from './across-deposit-output';
import { ACROSS_ERROR_CODES } from './across-error-codes';
import { acrossProgress } from './across-progress';
import { acrossQuoteQuery } from './across-quote-query';
import { parseAcrossQuote } from './parse-across-quote';

/** Across (across.to): the Swap API returns approvals and the deposit tx; tracked by the deposit tx hash. */
export class AcrossAdapter implements ProviderAdapter {
  readonly name = 'across' as const;

  constructor(
    private readonly config: ProvidersConfig['across'],
    private readonly fetchFn: FetchFn = fetch,
  ) {}

  async quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    const refused = checkSlice('across', slice, { feeRecipientRequired: true });
    if (refused !== null) return refused;
    const result = await fetchJson(this.fetchFn, {
      method: 'GET',
      url: providerUrl(
        this.config.baseUrl,
        '/swap/approval',
        acrossQuoteQuery(slice, this.config.integratorId),
      ),
      headers: this.headers(),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'across', operation: 'quote' },
    });
    if (!isJsonSuccess(result)) return quoteFailureFromHttp('across', result, ACROSS_ERROR_CODES);
    return quoteFromParser('across', result.status, () => parseAcrossQuote(result.body, slice));
  }

  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'across') throw new TrackingContextMismatchError('across', context.provider);
    if (options.sourceTxHash === null)
      return statusFailure(
        'not_found',
        'across tracks a leg by its deposit transaction, and none is known yet',
      );
    const query = { depositTxnRef: options.sourceTxHash };
    const result = await this.get('status', '/deposit/status', query, options.signal);
    // The indexer lags the chain: a deposit seconds old is not found yet, which is not a failure.
    if (result.kind === 'json' && result.status === 404 && isRecord(result.body))
      if (result.body.error === 'DepositNotFoundException')
        return { ok: true, progress: { state: 'pending', providerStatus: 'not_indexed' } };
    if (!isJsonSuccess(result)) return statusFailureFromHttp('across', result);
    let progress: LegProgress;
    try {
      progress = acrossProgress(result.body);
    } catch (error) {
      if (!(error instanceof MalformedResponseError)) throw error;
      return statusFailure(
        'provider_unavailable',
        `across status answered malformed: ${error.message}`,
        result.status,
      );
    }
    if (progress.state !== 'filled') return { ok: true, progress };
    // Best effort, like Relay's record: the fill is certain, only the amount may stay unknown.
    const deposit = await this.get('deposit', '/deposit', query, options.signal);
    const actualOutputRaw = isJsonSuccess(deposit) ? acrossDepositOutput(deposit.body) : null;
    return { ok: true, progress: { ...progress, actualOutputRaw } };
  }

  private get(operation: string, path: string, query: Record<string, string>, signal: AbortSignal) {
    return fetchJson(this.fetchFn, {
      method: 'GET',
      url: providerUrl(this.config.baseUrl, path, query),
      headers: this.headers(),
      signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'across', operation },
    });
  }

  private headers(): Record<string, string> {
    return this.config.apiKey === null ? {} : { authorization: `Bearer ${this.config.apiKey}` };
  }
}

import { type Hex } from 'viem';
import { checkSlice } from '../check-slice';
import { quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type HttpSender } from '../http/fetch-json';
import { ProviderHttp } from '../http/provider-http';
import { type HttpResult } from '../http/http-result';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type LegProgress, type StatusResult } from '../leg-progress';
import {
  type DepositSelector,
  type DepositTerms,
  type ProviderAdapter,
  type ProviderTrackingTraits,
  type QuoteSlice,
  type ReceiptLog,
} from '../provider-adapter.port';
import { type CctpBurn } from '../cctp/cctp-burn';
import { type FillRecord, type FillRecordQuery } from '../fill-record';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { isRecord } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { acrossDepositOutput } from './across-deposit-output';
import { acrossDepositTerms } from './across-deposit-refs';
import { acrossFillRecord } from './across-fill-records';
import { acrossCctpBurns, acrossIndexedDeposits, cctpIndexOf } from './across-indexed-deposits';
import { ACROSS_ERROR_CODES } from './across-error-codes';
import {
  acrossActionsFailed,
  acrossAnsweredDepositId,
  acrossProgress,
  acrossUnreportedActionToken,
} from './across-progress';
import { acrossQuoteQuery } from './across-quote-query';
import { parseAcrossQuote } from './parse-across-quote';

const HOUR_MS = 3_600_000;
/** An unfilled deposit's fill deadline when its own was not read: the frontend's default buffer (2 h). */
export const ACROSS_FILL_WINDOW_MS = 2 * HOUR_MS;
/** How long after its fill deadline an expired deposit's refund may take: two bundle cycles (see the traits). */
export const ACROSS_REFUND_WINDOW_MS = 7 * HOUR_MS;

/** Across (across.to): the Swap API returns approvals and the deposit tx; tracked by the deposit tx hash. */
export class AcrossAdapter implements ProviderAdapter {
  readonly name = 'across' as const;
  readonly tracking: ProviderTrackingTraits;

  constructor(
    private readonly config: ProvidersConfig['across'],
    /** This provider's own keep-alive connection pool unless a test passes a stand-in. */
    private readonly http: HttpSender = new ProviderHttp(),
  ) {
    this.tracking = {
      // The indexer finds a deposit by its transaction (or originChainId + depositId): nothing to ask before it.
      pollsBeforeSourceTx: false,
      // "Poll GET /deposit/status every 10 seconds. Do not poll more frequently — the indexer cadence is 10
      // seconds" (skills.across.to /skills/tracking-transactions; docs.across.to /api-reference/deposit/status/get:
      // "an indexing service that polls relevant events on a 10-second cadence"). ACROSS_MIN_POLL_INTERVAL_MS.
      minPollIntervalMs: config.minPollIntervalMs,
      // `deposit-failed` (a gasless deposit that never landed) is not followed by anything: final at once.
      failureGraceMs: 0,
      // Ours, used only when a quote carried no `expectedFillTime` (each quote's own figure comes first).
      expectedFillSeconds: 60,
      // A deposit whose fillDeadline was not read: the frontend's default, quote timestamp + 2 h
      // (across-protocol/frontend api/_fill-deadline.ts, api/_constants.ts DEFAULT_FILL_DEADLINE_BUFFER_SECONDS;
      // the quote timestamp is at most the deposit's time, so counting from the deposit is later, never earlier).
      fillWindowMs: ACROSS_FILL_WINDOW_MS,
      // After the deadline the deposit is `expired` and refunded by the next bundle: proposed "every ~1.5 hours", then
      // "must pass a challenge period via UMA's Optimistic Oracle" (docs.across.to /introduction/refunds), 2 h by
      // default (across-protocol/contracts contracts/hub-pool/HubPool.sol `liveness = 7200`), then relayed to the
      // spoke and executed. A deposit that just missed a bundle waits for the next: 1.5 + 2 + 1.5 + 2 h at worst.
      refundWindowMs: ACROSS_REFUND_WINDOW_MS,
    };
  }

  /** The Across app's page for a deposit (across-protocol/frontend src/Routes.tsx `/transaction/:depositTxnRef`). */
  explorerUrl(_context: TrackingContext, sourceTxHash: Hex | null): string | null {
    return sourceTxHash === null ? null : `https://app.across.to/transaction/${sourceTxHash}`;
  }

  /**
   * Each Across deposit of the receipt in log (call) order: a SpokePool deposit by its depositId, a CCTP-routed one
   * by `cctp:<its index on the indexer>` (across-indexed-deposits.ts; providers review N3).
   */
  depositRefs(logs: readonly ReceiptLog[]): string[] {
    return acrossIndexedDeposits(logs);
  }

  /** Each deposit's own fillDeadline and input token (the token its refund pays), from the receipt. */
  depositTerms(logs: readonly ReceiptLog[]): DepositTerms[] {
    // In the order of depositRefs, which lists CCTP burns too: a burn says nothing of a fill deadline.
    const terms = acrossDepositTerms(logs);
    let intent = 0;
    return acrossIndexedDeposits(logs).map((ref) =>
      cctpIndexOf(ref) === null
        ? (terms[intent++] ?? { fillDeadlineAt: null, refundToken: null })
        : { fillDeadlineAt: null, refundToken: null },
    );
  }

  /** Each CCTP-routed deposit's burn message (V1 nonce, V2 content), to find its MessageReceived in the fill. */
  depositCctpBurns(logs: readonly ReceiptLog[]): (CctpBurn | null)[] {
    return acrossCctpBurns(logs);
  }

  /**
   * This deposit's `FilledRelay` in the fill transaction, by originChainId + depositId, or a CCTP-routed deposit's
   * MessageReceived (across-fill-records.ts).
   */
  fillRecord(context: TrackingContext, query: FillRecordQuery): FillRecord {
    if (context.provider !== 'across') throw new TrackingContextMismatchError('across', context.provider);
    return acrossFillRecord(context.originChainId, query);
  }

  async quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    const refused = checkSlice('across', slice, { feeRecipientRequired: true });
    if (refused !== null) return refused;
    const result = await fetchJson(this.http, {
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

  /**
   * `deposit` picks this leg's deposit when the transaction holds several (a batch): the indexer's `index`
   * "defaults to 0" and selects among the transaction's deposits (across-protocol/indexer
   * packages/indexer-api/src/dtos/deposits.dto.ts DepositStatusParams/DepositParams; services/deposits.ts
   * getDepositStatusByTxnRef: "The transaction can have multiple types of deposits"), on `/deposit/status` and
   * `/deposit` alike. When the receipt named the deposit (`deposit.ref`, its depositId) and the indexed deposit
   * at that index is another one, or the index is out of range, the leg is looked up by
   * `originChainId + depositId` instead, which names exactly one deposit.
   */
  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'across') throw new TrackingContextMismatchError('across', context.provider);
    if (options.sourceTxHash === null)
      return statusFailure(
        'not_found',
        'across tracks a leg by its deposit transaction, and none is known yet',
      );
    const deposit = options.deposit ?? null;
    let query: Record<string, string> = { depositTxnRef: options.sourceTxHash };
    // A CCTP-routed leg's ref is its index on the indexer (intents first, then CCTP): not its call position (N3).
    const cctpIndex = cctpIndexOf(deposit?.ref ?? null);
    if (deposit !== null) query.index = String(cctpIndex ?? deposit.index);
    let result = await this.get('status', '/deposit/status', query, options.signal);
    if (deposit?.ref != null && cctpIndex === null && this.answeredAnotherDeposit(result, deposit.ref)) {
      query = { originChainId: String(context.originChainId), depositId: deposit.ref };
      result = await this.get('status', '/deposit/status', query, options.signal);
    }
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
    const actionsFailed = acrossActionsFailed(result.body);
    // Best effort, like Relay's record: the fill is certain, only the amount (and token) may stay unknown.
    const record = await this.get('deposit', '/deposit', query, options.signal);
    const output = isJsonSuccess(record)
      ? acrossDepositOutput(record.body, { actionsFailed })
      : { actualOutputRaw: null, outputToken: null };
    const unreported = isJsonSuccess(record)
      ? acrossUnreportedActionToken(result.body, { body: record.body, outputToken: output.outputToken })
      : null;
    return {
      ok: true,
      progress: {
        ...progress,
        actualOutputRaw: output.actualOutputRaw,
        // The swap (or other action) after the bridge failed: the fallback recipient holds the bridged token.
        ...(actionsFailed ? { destinationActionFailed: { token: output.outputToken } } : {}),
        // A slow fill's actions have no reported outcome (N13): the tracker reads the bridged token if need be.
        ...(unreported !== null ? { destinationActionUnreported: { token: unreported } } : {}),
      },
    };
  }

  /**
   * The answer at `index` is not the deposit the receipt named (`ref`), or `index` is past the transaction's
   * deposits (400 IndexParamOutOfRangeException, indexer services/exceptions.ts), or names no depositId: a CCTP or
   * OFT deposit's answer, which the indexer lists after every SpokePool deposit of the transaction (N3).
   */
  private answeredAnotherDeposit(result: HttpResult, ref: string): boolean {
    if (result.kind !== 'json') return false;
    if (result.status === 400 && isRecord(result.body))
      return result.body.error === 'IndexParamOutOfRangeException';
    if (!isJsonSuccess(result)) return false;
    // An answer without a depositId is a CCTP or OFT deposit's, never this SpokePool deposit's (N3).
    return acrossAnsweredDepositId(result.body) !== ref;
  }

  private get(operation: string, path: string, query: Record<string, string>, signal: AbortSignal) {
    return fetchJson(this.http, {
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

import { randomBytes } from 'node:crypto';
import { type Address, type Hex, toHex } from 'viem';
import { checkSlice } from '../check-slice';
import { sameAddress } from '../evm/same-address';
import { quoteFailure, quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type FetchFn } from '../http/fetch-json';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type StatusResult } from '../leg-progress';
import { type ProviderAdapter, type QuoteSlice } from '../provider-adapter.port';
import { type ProviderQuote, type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { type MayanChain, mayanChain } from './mayan-chains';
import { MAYAN_ERROR_CODES } from './mayan-error-codes';
import { mayanProgress } from './mayan-progress';
import { mayanQuoteRequest } from './mayan-quote-request';
import { swiftCalls } from './swift-calls';
import { bestSwiftQuote, readSwiftQuote, type SwiftQuote } from './swift-quote';

export interface MayanAdapterDeps {
  fetch?: FetchFn;
  /** The order's `random` salt; injectable so tests can pin the calldata. */
  randomBytes32?: () => Hex;
}

/** Mayan Swift: a quote without a transaction, so the forwarder call is built here; tracked by the source tx. */
export class MayanAdapter implements ProviderAdapter {
  readonly name = 'mayan' as const;
  private readonly fetchFn: FetchFn;
  private readonly randomBytes32: () => Hex;

  constructor(
    private readonly config: ProvidersConfig['mayan'],
    deps: MayanAdapterDeps = {},
  ) {
    this.fetchFn = deps.fetch ?? fetch;
    this.randomBytes32 = deps.randomBytes32 ?? (() => toHex(randomBytes(32)));
  }

  async quote(slice: QuoteSlice, options: { signal: AbortSignal }): Promise<QuoteResult> {
    const referrer = this.config.referrerAddress ?? slice.appFeeRecipient;
    const refused = checkSlice('mayan', slice, {
      feeRecipientRequired: this.config.referrerAddress === null,
    });
    if (refused !== null) return refused;
    const from = mayanChain(slice.source.chainId);
    const to = mayanChain(slice.target.chainId);
    if (from === null || to === null)
      return quoteFailure(
        'mayan',
        'route_unavailable',
        `mayan does not serve chain ${from === null ? slice.source.chainId : slice.target.chainId}`,
      );
    // A Swift refund goes to the order's trader, the depositing wallet; it cannot be sent anywhere else.
    if (!sameAddress(slice.refundTo, slice.wallet))
      return quoteFailure(
        'mayan',
        'route_unavailable',
        'mayan refunds only to the depositing wallet, not to refundTo',
      );
    const result = await fetchJson(this.fetchFn, {
      method: 'POST',
      url: providerUrl(this.config.priceUrl, '/quote', { apiKey: this.config.apiKey }),
      body: mayanQuoteRequest(slice, { from, to }, referrer),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'mayan', operation: 'quote' },
    });
    if (!isJsonSuccess(result)) return quoteFailureFromHttp('mayan', result, MAYAN_ERROR_CODES);
    return quoteFromParser('mayan', result.status, () => {
      const best = bestSwiftQuote(result.body);
      if (best === null) throw new UnusableRouteError('no Swift route offered');
      return this.toQuote(slice, readSwiftQuote(best), { from, to }, referrer);
    });
  }

  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'mayan') throw new TrackingContextMismatchError('mayan', context.provider);
    if (options.sourceTxHash === null)
      return statusFailure(
        'not_found',
        'mayan tracks a leg by its source transaction, and none is known yet',
      );
    const result = await fetchJson(this.fetchFn, {
      method: 'GET',
      url: providerUrl(this.config.explorerUrl, `/swap/trx/${options.sourceTxHash}`),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'mayan', operation: 'status' },
    });
    // The explorer indexes a few seconds behind the chain: 404 means "not yet", keep polling.
    if ((result.kind === 'json' || result.kind === 'unreadable') && result.status === 404)
      return { ok: true, progress: { state: 'pending', providerStatus: 'not_indexed' } };
    if (!isJsonSuccess(result)) return statusFailureFromHttp('mayan', result);
    try {
      return { ok: true, progress: mayanProgress(result.body, context.targetDecimals) };
    } catch (error) {
      if (!(error instanceof MalformedResponseError)) throw error;
      return statusFailure(
        'provider_unavailable',
        `mayan status answered malformed: ${error.message}`,
        result.status,
      );
    }
  }

  private toQuote(
    slice: QuoteSlice,
    quote: SwiftQuote,
    chains: { from: MayanChain; to: MayanChain },
    referrer: Address | null,
  ): ProviderQuote {
    const sentReferrer = referrer !== null && slice.appFeeBps > 0 ? referrer : null;
    const calls = swiftCalls(slice, quote, this.config.forwarderAddress, {
      destWormholeChainId: chains.to.wormholeId,
      referrer: sentReferrer,
      requestedReferrerBps: slice.appFeeBps,
      random: this.randomBytes32(),
    });
    return {
      provider: 'mayan',
      sliceId: slice.sliceId,
      expectedOutputRaw: quote.expectedOutputRaw,
      minimumOutputRaw: quote.minReceivedRaw,
      // The quote prices nothing in USD except the relayer fee.
      inputUsd: null,
      outputUsd: null,
      feeUsd: quote.relayerFeeUsd,
      feeBreakdown: quote.relayerFeeUsd === null ? [] : [{ kind: 'provider', usd: quote.relayerFeeUsd }],
      lossUsd: null,
      etaSeconds: quote.etaSeconds,
      calls,
      providerRequestId: quote.quoteId,
      // The Swift order's own deadline: an order signed after it cannot be filled.
      validUntil: Number(quote.deadline) * 1000,
      trackingContext: {
        provider: 'mayan',
        fromChain: chains.from.name,
        toChain: chains.to.name,
        targetDecimals: slice.target.decimals,
      },
    };
  }
}

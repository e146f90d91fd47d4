import { randomBytes } from 'node:crypto';
import { type Address, type Hex, toHex } from 'viem';
import { checkSlice } from '../check-slice';
import { sameAddress } from '../evm/same-address';
import { quoteFailure, quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type FetchFn } from '../http/fetch-json';
import { type HttpResult } from '../http/http-result';
import { isJsonSuccess } from '../http/is-json-success';
import { providerUrl } from '../http/provider-url';
import { type StatusResult } from '../leg-progress';
import {
  type DepositSelector,
  type ProviderAdapter,
  type ProviderTrackingTraits,
  type QuoteSlice,
  type ReceiptLog,
} from '../provider-adapter.port';
import { type ProviderQuote, type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { isRecord } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { type MayanChain, mayanChain } from './mayan-chains';
import { MAYAN_ERROR_CODES } from './mayan-error-codes';
import { mayanOrderRefs } from './mayan-order-refs';
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
  readonly tracking: ProviderTrackingTraits = {
    // The explorer is keyed by the source tx hash or the order hash: nothing to ask before the deposit.
    pollsBeforeSourceTx: false,
    // "Poll every 2 seconds" (docs.mayan.finance /build/track-transactions, "How often to poll").
    minPollIntervalMs: 2000,
    // Only COMPLETED, REFUNDED and CANCELED end an order; a FAILED answer (undocumented) is taken as final.
    failureGraceMs: 0,
  };
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

  /** The Swift order key of each OrderCreated in the receipt, in log order (mayan-order-refs.ts). */
  depositRefs(logs: readonly ReceiptLog[]): string[] {
    return mayanOrderRefs(logs);
  }

  /**
   * By the order key when the receipt named one (`deposit.ref`): a transaction can create several orders (a
   * batch), and its hash alone does not say which one is this leg's. By the source tx hash otherwise.
   *
   * Mayan documents the order-hash lookup for gasless orders (docs.mayan.finance /build/track-transactions); an
   * on-chain order's key is the same Swift order hash (swap-sdk src/evm/evmSwift.ts uses createSwiftOrderHash for
   * the gasless one). Should the explorer not know the key yet (404), the tx-hash answer is used, but only when it
   * is this very order (`orderHash` equal to the key); anything else stays pending.
   */
  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'mayan') throw new TrackingContextMismatchError('mayan', context.provider);
    const orderKey = orderKeyOrNull(options.deposit?.ref);
    const lookup = orderKey ?? options.sourceTxHash;
    if (lookup === null)
      return statusFailure(
        'not_found',
        'mayan tracks a leg by its source transaction, and none is known yet',
      );
    let result = await this.swap(lookup, options.signal);
    if (orderKey !== null && options.sourceTxHash !== null && isNotIndexed(result)) {
      const byTx = await this.swap(options.sourceTxHash, options.signal);
      if (isJsonSuccess(byTx) && isRecord(byTx.body) && sameKey(byTx.body.orderHash, orderKey)) result = byTx;
    }
    // The explorer indexes a few seconds behind the chain: 404 means "not yet", keep polling.
    if (isNotIndexed(result))
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

  private swap(hash: string, signal: AbortSignal) {
    return fetchJson(this.fetchFn, {
      method: 'GET',
      url: providerUrl(this.config.explorerUrl, `/swap/trx/${hash}`),
      signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'mayan', operation: 'status' },
    });
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

const ORDER_KEY = /^0x[0-9a-fA-F]{64}$/;

function orderKeyOrNull(ref: string | null | undefined): Hex | null {
  return typeof ref === 'string' && ORDER_KEY.test(ref) ? (ref.toLowerCase() as Hex) : null;
}

function sameKey(value: unknown, key: Hex): boolean {
  return typeof value === 'string' && value.toLowerCase() === key;
}

function isNotIndexed(result: HttpResult): boolean {
  return (result.kind === 'json' || result.kind === 'unreadable') && result.status === 404;
}

import { type Address, type Hex, zeroAddress } from 'viem';
import { checkSlice } from '../check-slice';
import { sameAddress } from '../evm/same-address';
import { quoteFailure, quoteFailureFromHttp } from '../failures/quote-failure';
import { quoteFromParser } from '../failures/quote-from-parser';
import { statusFailure, statusFailureFromHttp } from '../failures/status-failure';
import { fetchJson, type HttpSender } from '../http/fetch-json';
import { ProviderHttp } from '../http/provider-http';
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
import { type FillRecord, type FillRecordQuery } from '../fill-record';
import { type QuoteResult, type TrackingContext } from '../provider-quote';
import { type ProvidersConfig } from '../providers-config';
import { isRecord } from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { TrackingContextMismatchError } from '../tracking-context-mismatch.error';
import { mayanChain } from './mayan-chains';
import { MAYAN_ERROR_CODES } from './mayan-error-codes';
import { mayanFillRecord } from './mayan-fill-record';
import { mayanOrderRefs } from './mayan-order-refs';
import { mayanProgress } from './mayan-progress';
import { mayanQuoteRequest } from './mayan-quote-request';
import { pooledRandomBytes32 } from './pooled-random';
import { requestSwapRoute, type SwiftSwapRoute } from './mayan-swap-route';
import { readMayanAnswer } from './read-mayan-answer';
import { swiftProviderQuote } from './swift-provider-quote';

export interface MayanAdapterDeps {
  /** Mayan's own keep-alive connection pool (ProviderHttp) unless a test passes a stand-in. */
  fetch?: HttpSender;
  /**
   * 32 random bytes for the order's `random`: its first 16 follow the quoteId (swift-random-key.ts), all 32 are
   * used when the quote has no usable id. Injectable so tests can pin the calldata.
   */
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
    // Ours, used only when a quote carried no `etaSeconds` (each quote's own figure comes first).
    expectedFillSeconds: 120,
    // After the order's deadline (the explorer's `deadline`, the order's deadline64) no driver may fulfil it: it is
    // cancelled on the destination and refunded on the source through a Wormhole message ("Unsuccessful auction,
    // refund back to source chain", mayan-finance/wormhole-sdk-route src/utils.ts possibleVaaTypes). Mayan publishes
    // no figure for that path; ours: Ethereum finality for the VAA plus a margin (unverified).
    refundWindowMs: 2 * 3_600_000,
  };
  private readonly http: HttpSender;
  private readonly randomBytes32: () => Hex;

  constructor(
    private readonly config: ProvidersConfig['mayan'],
    deps: MayanAdapterDeps = {},
  ) {
    this.http = deps.fetch ?? new ProviderHttp();
    this.randomBytes32 = deps.randomBytes32 ?? pooledRandomBytes32();
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
    // A refund goes to the order's trader, which may be any source-chain address (refundTo: swap-sdk v15.2.0
    // `swiftRefundAddress`); the SDK refuses only a zero one, and a zero destination (src/evm/evmSwap.ts).
    if (sameAddress(slice.refundTo, zeroAddress) || sameAddress(slice.recipient, zeroAddress))
      return quoteFailure('mayan', 'route_unavailable', 'mayan refuses a zero recipient or refund address');
    const chains = { from, to };
    const result = await fetchJson(this.http, {
      method: 'POST',
      url: providerUrl(this.config.priceUrl, '/quote', { apiKey: this.config.apiKey }),
      body: mayanQuoteRequest(slice, chains, referrer, this.config.forwarderAddress),
      signal: options.signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'mayan', operation: 'quote' },
    });
    if (!isJsonSuccess(result)) return quoteFailureFromHttp('mayan', result, MAYAN_ERROR_CODES);
    const answer = readMayanAnswer(result.status, result.body, slice, chains);
    if (!answer.ok) return answer;
    const sentReferrer = referrer !== null && slice.appFeeBps > 0 ? referrer : null;
    let route: SwiftSwapRoute | null = null;
    if (answer.method === 'swapAndForwardEth') {
      const routed = await requestSwapRoute(this.http, this.config, {
        quote: answer.quote,
        referrer: sentReferrer,
        signal: options.signal,
      });
      if (!routed.ok) return routed;
      route = routed.route;
    }
    return quoteFromParser('mayan', result.status, () =>
      swiftProviderQuote(slice, answer.quote, {
        forwarder: this.config.forwarderAddress,
        referrer: sentReferrer,
        route,
        random32: this.randomBytes32(),
      }),
    );
  }

  /** Mayan's explorer page (mayan-finance/wormhole-sdk-route src/index.ts `transferUrl`). */
  explorerUrl(_context: TrackingContext, sourceTxHash: Hex | null): string | null {
    return sourceTxHash === null ? null : `https://explorer.mayan.finance/swap/${sourceTxHash}`;
  }

  /** This order's `OrderFulfilled` in the fill transaction, by its order key (mayan-fill-record.ts). */
  fillRecord(context: TrackingContext, query: FillRecordQuery): FillRecord {
    if (context.provider !== 'mayan') throw new TrackingContextMismatchError('mayan', context.provider);
    return mayanFillRecord(query);
  }

  /**
   * The Swift contract the quote named: OrderCreated is its event on the source, OrderFulfilled on the destination,
   * where Mayan's Swift sits at the same address (one deployment address on every EVM chain; unverified for every
   * chain). Null for a leg stored before the quote's contract was kept.
   */
  quotedContracts(context: TrackingContext): readonly Address[] | null {
    if (context.provider !== 'mayan') throw new TrackingContextMismatchError('mayan', context.provider);
    return context.swiftContract === undefined ? null : [context.swiftContract];
  }

  /** The Swift order key of each OrderCreated in the receipt, in log order (mayan-order-refs.ts). */
  depositRefs(logs: readonly ReceiptLog[]): string[] {
    return mayanOrderRefs(logs);
  }

  /**
   * One explorer call per poll, with the API key (provider review N4: "If you are polling at scale … pass it as
   * `apiKey`", docs.mayan.finance /build/track-transactions; the key raises limits "across all API calls", swap-sdk
   * README.md). By the order key when the receipt named one (`deposit.ref`): a transaction can create several orders
   * (a batch), and its hash alone does not say which one is this leg's. The key is looked up the way Mayan's own
   * driver does, `/swap/order-id/SWIFT_0x{key}` (mayan-finance/driver-sdk src/watchers/mayan-explorer.ts
   * `fetchFromExplorerByHash`; `/swap/trx/{orderHash}` is documented for gasless orders only). An answer naming
   * another order counts as not indexed. By the source tx hash when no key is known. A 404 is "not yet": the next
   * poll asks again, so a poll never makes a second call.
   */
  async status(
    context: TrackingContext,
    options: { signal: AbortSignal; sourceTxHash: Hex | null; deposit?: DepositSelector | null },
  ): Promise<StatusResult> {
    if (context.provider !== 'mayan') throw new TrackingContextMismatchError('mayan', context.provider);
    const orderKey = orderKeyOrNull(options.deposit?.ref);
    if (orderKey === null && options.sourceTxHash === null)
      return statusFailure(
        'not_found',
        'mayan tracks a leg by its source transaction, and none is known yet',
      );
    const result =
      orderKey !== null
        ? await this.explorer(`/swap/order-id/SWIFT_${orderKey}`, options.signal)
        : await this.explorer(`/swap/trx/${options.sourceTxHash}`, options.signal);
    const otherOrder =
      orderKey !== null &&
      isJsonSuccess(result) &&
      isRecord(result.body) &&
      result.body.orderHash !== undefined &&
      !sameKey(result.body.orderHash, orderKey);
    // The explorer indexes a few seconds behind the chain: 404 means "not yet", keep polling.
    if (isNotIndexed(result) || otherOrder)
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

  private explorer(path: string, signal: AbortSignal) {
    return fetchJson(this.http, {
      method: 'GET',
      url: providerUrl(this.config.explorerUrl, path, { apiKey: this.config.apiKey }),
      signal,
      timeoutMs: this.config.timeoutMs,
      metric: { provider: 'mayan', operation: 'status' },
    });
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

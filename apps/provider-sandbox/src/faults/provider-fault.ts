import { type SandboxProvider } from '../pricing/sandbox-provider';

/** Which of a provider's endpoints an HTTP fault (latency, status, timeout, malformed JSON) hits. */
export type FaultEndpoints = 'all' | 'quote' | 'status';

/**
 * A misbehaviour injected into one provider. HTTP faults are answered in the provider's own dialect;
 * `routeUnavailableTokens` and `refund` change what the quote engine and the filler do.
 */
export interface ProviderFault {
  provider: SandboxProvider;
  latencyMs?: number;
  /** 429 or 5xx, answered with the dialect's real error body. */
  httpStatus?: number;
  /** Never answer; the request stays open until the client gives up. */
  timeout?: boolean;
  /** Quotes touching any of these token addresses (any chain) get the dialect's no-route error. */
  routeUnavailableTokens?: string[];
  /** Deposits are refunded to the depositor on the source chain instead of filled. */
  refund?: boolean;
  /**
   * Across only: a fill waits this long for others due on its destination chain, all then sent in one
   * `SpokePool.multicall` (S13); default `ACROSS_FILL_BATCH_WINDOW_MS`, which batches deposits indexed together.
   */
  batchFillsMs?: number;
  /**
   * Across only: `GET /swap/approval` routes USDC→USDC legs over CCTP, as the Swap API does between CCTP chains (a
   * TokenMessengerV2 `depositForBurn` swap transaction); the sandbox's CCTP finalizer mints them.
   */
  cctp?: boolean;
  /**
   * Across only: an attested CCTP burn waits this long for others bound for its destination chain, all then minted in
   * one Multicall3 `tryAggregate` of `receiveMessage` calls; default `CCTP_MINT_BATCH_WINDOW_MS`.
   */
  batchMintsMs?: number;
  /** A 200 with a truncated JSON body. */
  malformedJson?: boolean;
  endpoints?: FaultEndpoints;
}
